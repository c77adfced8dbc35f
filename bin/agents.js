#!/usr/bin/env node
// The launcher. It compiles the parts of dist/ a run needs (dist/agents.cjs, the program; dist/http.cjs on
// the first request; dist/vendor/*.cjs on first use) each with a V8 code cache kept per user, so a run skips
// parsing and compiling what earlier runs compiled: the functions that ran, not only the top level, since a
// part's cache is made at the end of a run that used it (or just before a V8 flag is set, see FLAGS), and
// extended by the first run of each other kind (see runKind). Node 20 has no compile cache of its own;
// without a usable cache a part compiles as usual.
'use strict';
/* global require, module, __dirname, Buffer */
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose, see above */
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
// Node's Module, without loading node:module.
const Module = module.constructor;
const dist = path.join(__dirname, '..', 'dist');

/** ~/.cache/agents (or the platform's cache directory), private to the user: a cache holds code. */
function cacheDir() {
  if (process.platform === 'win32') {
    return path.join(process.env.LOCALAPPDATA || require('node:os').homedir(), 'agents', 'Cache');
  }
  // os.homedir() reads $HOME first too; node:os is loaded only when it is unset.
  const home = () => process.env.HOME || require('node:os').homedir();
  if (process.platform === 'darwin') return path.join(home(), 'Library', 'Caches', 'agents');
  return path.join(process.env.XDG_CACHE_HOME || path.join(home(), '.cache'), 'agents');
}
const cache = cacheDir();

/**
 * What kind of run this is, for the caches: help, the version, or the command (and `config`'s
 * subcommand), with --json, ending in a usage error or not. A part's cache holds what the runs of the
 * kinds it lists compiled; a run of another kind adds what it compiled (say `show` after `--version`),
 * so each command's code is compiled once per machine, not on every run.
 */
function runKind() {
  const args = process.argv.slice(2);
  let kind;
  if (args.includes('-h') || args.includes('--help')) kind = 'help';
  else if (args.includes('-V') || args.includes('--version')) kind = 'version';
  else {
    // Command names only: a mistyped command or an id must not make kinds of its own.
    const words = args
      .filter((a, i) => !a.startsWith('-') && !['--profile', '--base-url'].includes(args[i - 1]))
      .map((w) => (/^[a-z]{2,12}$/.test(w) ? w : '?'));
    kind = words[0] === 'config' ? words.slice(0, 2).join(' ') : (words[0] ?? '');
    if (args.includes('--json')) kind += ' --json';
  }
  return process.exitCode === 2 ? `${kind} (usage)` : kind;
}
/** Kinds a part's cache may list; past that it is left as it is. */
const MAX_KINDS = 32;

/**
 * V8 flags are set when the first part that needs them loads, not at start: node:v8 costs a run that sends
 * no request more than anything else it does (it loads Node's streams). V8 accepts a code cache only under
 * the flags it was made with, and makes one under the flags in force when asked, so each part's cache is
 * kept per flag state, and the parts compiled before the flags change have theirs made before they do.
 *  --liftoff-only and a tiering budget no CLI run spends, before dist/http.cjs: undici parses HTTP with
 *    llhttp compiled to WebAssembly. Left to tier up, V8 compiles it again with TurboFan in the background,
 *    which costs about 35 MB of peak memory and some 30 ms of CPU, and the process waits for that compile
 *    before it can exit (some 60 ms on Node 20). Liftoff's code parses a CLI's few responses just as well.
 *    Node 24's V8 reads --liftoff-only when it starts, so set later it does nothing there; the budget is
 *    read for each module compiled (measured: both work on 20 and 22, only the budget on 24).
 */
const FLAGS = {
  'http.cjs': { flag: '--liftoff-only --wasm-tiering-budget=2147483647', tag: '-liftoff' },
};
/** The tags of the flags set so far: the caches made under them carry them in their names. */
let flags = '';

/** The parts loaded so far, by file name under dist/. */
const parts = new Map();

/**
 * A cache file is a line naming the kinds of run it covers, then V8's cache twice: V8 checks a cache's
 * header, not its contents (unless told to, with a flag that loads node:v8), so a cache damaged on disk
 * would crash every run with a fatal error in its deserializer. Two copies that differ are not offered.
 */
const MAGIC = 'agents-v8-cache ';
function readCache(file) {
  const bytes = fs.readFileSync(file);
  const eol = bytes.indexOf(10);
  const head = eol === -1 ? '' : bytes.toString('latin1', 0, eol);
  const both = bytes.subarray(eol + 1);
  const half = both.length / 2;
  if (!head.startsWith(MAGIC) || !Number.isInteger(half)) return undefined;
  if (!both.subarray(0, half).equals(both.subarray(half))) return undefined;
  return { data: both.subarray(0, half), kinds: head.slice(MAGIC.length).split(',') };
}

/** Loads a part of dist/ (once) and returns its exports. */
function load(name) {
  const loaded = parts.get(name);
  if (loaded !== undefined) return loaded.module.exports;
  const needs = FLAGS[name];
  if (needs !== undefined && !flags.includes(needs.tag)) {
    saveCaches();
    require('node:v8').setFlagsFromString(needs.flag);
    flags += needs.tag;
  }
  const file = path.join(dist, name);
  const source = fs.readFileSync(file, 'utf8');
  // Keyed by the part's build id (its first line), the flags, this Node and this CPU: V8 checks little
  // more than the length of the source, so a cache made for other code must never be offered.
  const build = /^\/\/ build (\w+)/.exec(source)?.[1] ?? 'dev';
  const part = name.replace(/\.cjs$/, '').replace(/[\\/]/g, '-');
  const cacheFile = path.join(cache, `v8-${part}-${build}${flags}-${process.version}-${process.arch}.bin`);
  let cached;
  try {
    cached = readCache(cacheFile);
  } catch {
    // No cache yet: compile, and write one after the run.
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData: cached?.data });
  const usable = cached !== undefined && !script.cachedDataRejected;
  const module = { exports: {} };
  parts.set(name, { module, script, cacheFile, flags, kinds: usable ? cached.kinds : undefined });
  const dir = path.dirname(file);
  // A part requires the other parts by relative name, and Node's modules as any module does.
  const requirePart = (id) =>
    id.startsWith('./') || id.startsWith('../')
      ? load(path.relative(dist, path.resolve(dir, id)))
      : require(id);
  script.runInThisContext().call(module.exports, module.exports, requirePart, module, file, dir);
  return module.exports;
}

/**
 * At the end of the run (and before the flags change): for each part compiled under the flags in force
 * that has no usable cache, or whose cache has not seen a run of this kind, saves what V8 has compiled of
 * it (atomically, readable by the user alone) and the kinds it covers. A cache is not extended after a
 * long run: V8 drops the bytecode of functions unused for a while, and the cache would lose them.
 */
function saveCaches() {
  const kind = runKind();
  const long = process.uptime() > 60;
  for (const p of parts.values()) {
    const { script, cacheFile, kinds } = p;
    if (p.flags !== flags) continue;
    if (kinds !== undefined && (kinds.includes(kind) || kinds.length >= MAX_KINDS || long)) continue;
    p.kinds = [...(kinds ?? []), kind];
    try {
      fs.mkdirSync(cache, { recursive: true, mode: 0o700 });
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      const data = script.createCachedData();
      const head = Buffer.from(`${MAGIC}${p.kinds.join(',')}\n`, 'latin1');
      fs.writeFileSync(tmp, Buffer.concat([head, data, data]), { mode: 0o600 });
      fs.renameSync(tmp, cacheFile);
      pruneOthers(cacheFile);
    } catch {
      // A read-only home or a full disk: the next run compiles again.
    }
  }
}

/** A day: an older cache of another build of a part is taken for an upgrade's leftover. */
const STALE_MS = 24 * 60 * 60 * 1000;

/**
 * Removes the caches of other builds of the part `cacheFile` belongs to, once a day old: each upgrade
 * would otherwise leave its caches (about 1 MB) behind for good. Another Node's cache of this build stays;
 * a second install still in use only has its cache made again. Run only when a cache was written (rarely).
 */
function pruneOthers(cacheFile) {
  const name = path.basename(cacheFile);
  const part = /^v8-(.+?)-[0-9a-f]{16}(?:-|$)/.exec(name)?.[1];
  const build = /-([0-9a-f]{16})(?:-|\.)/.exec(name)?.[1];
  if (part === undefined || build === undefined) return;
  const now = Date.now();
  for (const other of fs.readdirSync(cache)) {
    if (!other.startsWith(`v8-${part}-`) || other.includes(`-${build}`) || !other.endsWith('.bin')) continue;
    // Another part whose name starts with this one's ("vendor-marked" and "vendor-marked-terminal").
    if (!/^[0-9a-f]{16}(?:-|\.)/.test(other.slice(`v8-${part}-`.length))) continue;
    const file = path.join(cache, other);
    try {
      if (now - fs.statSync(file).mtimeMs > STALE_MS) fs.unlinkSync(file);
    } catch {
      // Gone already, or not ours to remove.
    }
  }
}

void load('agents.cjs').run().then(saveCaches);
