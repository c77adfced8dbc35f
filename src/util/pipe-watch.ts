// Noticing that the reader of our stdout pipe went away while we write nothing (`agents tail … | head -1`
// during a long quiet turn): on Linux, /proc says who still holds the pipe open for reading.

// node:fs as Node's own module, not through `import`: this module loads at every start, and an ES import of
// node:fs makes Node build its ES facade, which loads fs's promises, streams and watchers and readline.
const { readdirSync, readFileSync, readlinkSync } = process.getBuiltinModule('node:fs');

/** `read()`, or `fallback` when /proc says no (the process or descriptor gone, or not ours to look at). */
function proc<T>(read: () => T, fallback: T): T {
  try {
    return read();
  } catch {
    return fallback;
  }
}

/** Whether a descriptor is open for reading (O_RDONLY or O_RDWR). */
function readsFrom(pid: string, fd: string): boolean {
  const info = proc(() => readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8'), '');
  const flags = /^flags:\s*(\d+)/m.exec(info)?.[1];
  const mode = flags === undefined ? -1 : Number.parseInt(flags, 8) & 3;
  return mode === 0 || mode === 2;
}

/** Whether `pid` holds `target` open for reading: true, false, or undefined when we may not look. */
function holds(pid: string, target: string): boolean | undefined {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ENOENT' ? false : undefined;
  }
  return fds.some(
    (fd) => proc(() => readlinkSync(`/proc/${pid}/fd/${fd}`), '') === target && readsFrom(pid, fd),
  );
}

/** The parent of `pid` (field 4 of /proc/<pid>/stat, after the command name in parentheses). */
function parentOf(pid: string): string | undefined {
  const stat = proc(() => readFileSync(`/proc/${pid}/stat`, 'utf8'), undefined);
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[1];
}

function childrenOf(pid: string): string[] {
  return proc(
    () =>
      readdirSync(`/proc/${pid}/task`).flatMap((tid) =>
        readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ').filter(Boolean),
      ),
    [],
  );
}

/** The pipeline's processes around `self`: the children of its parent and grandparent, and theirs. */
function neighbours(self: string): string[] {
  const parent = parentOf(self);
  const grandparent = parent === undefined ? undefined : parentOf(parent);
  const first = [parent, grandparent].flatMap((p) => (p === undefined ? [] : childrenOf(p)));
  return [...new Set([...first, ...first.flatMap(childrenOf)])].filter((p) => p !== self);
}

/** Every process that holds `target` for reading; undefined when some could not be looked at. */
function everyReader(target: string, self: string): string[] | undefined {
  let blind = false;
  const found: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p) && p !== self)) {
    const h = holds(pid, target);
    if (h === undefined) blind = true;
    else if (h) found.push(pid);
  }
  return blind && found.length === 0 ? undefined : found;
}

/** Calls `onClosed` once the reader of our stdout pipe is gone (nothing without /proc, a pipe, or a reader
 * seen); returns what stops watching. Node cannot poll a write-only descriptor and a zero-byte write never
 * fails, so /proc is asked: at start among the pipeline's processes, then every second whether those still
 * hold it, and when none does, every process once. A reader it cannot see means it never concludes. */
export function watchStdoutReader(pid: number, onClosed: () => void, intervalMs = 1000): () => void {
  const self = String(pid);
  let target: string;
  try {
    target = readlinkSync(`/proc/${self}/fd/1`);
  } catch {
    return () => undefined;
  }
  if (!target.startsWith('pipe:[')) return () => undefined;
  let readers = neighbours(self).filter((p) => holds(p, target) === true);
  if (readers.length === 0) return () => undefined;
  const timer = setInterval(() => {
    readers = readers.filter((p) => holds(p, target) === true);
    if (readers.length > 0) return;
    const all = everyReader(target, self);
    if (all === undefined || all.length > 0) {
      readers = all ?? [];
      if (all === undefined) clearInterval(timer); // someone we may not look at could be reading
      return;
    }
    clearInterval(timer);
    onClosed();
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}
