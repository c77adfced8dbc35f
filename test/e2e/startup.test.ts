// Start-up of the built binary: bin/agents.js compiles the parts of dist/ a run needs (agents.cjs, the
// program; http.cjs, undici's parts, on the first request; the vendor files) through node:vm, each with a
// per-user V8 code cache under $XDG_CACHE_HOME/agents, keyed by the part, its build id (first line), the
// Node version and the CPU, written after a run that had none and extended by a run of a kind it has not
// seen (help, the version, each command: the first line of the file lists the kinds). These tests
// hold the launcher to what main prints in-process, check that the cache is written, used, and never
// needed (a corrupt, truncated or unwritable cache only costs a compile), and that a run loads only what
// it uses: no HTTP code for a command that sends no request, never Node's own copy of undici. Each test
// has its own XDG_CACHE_HOME.
import { spawn } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, cliEnv } from '../support/run-cli.js';
import { runMain } from '../support/main.js';
import { startEmulator } from '../../src/emulator/index.js';

const scratch = mkdtempSync(join(tmpdir(), 'agents-startup-'));

const DIST = join(dirname(BIN), '..', 'dist');
/** The build id the launcher keys its cache on: the first line of the program's bundle next to BIN. */
const BUILD = /^\/\/ build (\w+)\n/.exec(readFileSync(join(DIST, 'agents.cjs'), 'utf8'))?.[1];

// Preloaded with --require: records, in a file (stdout and stderr stay exactly the program's), what the
// launcher handed node:vm for each part of dist/ (was a cache given, did V8 reject it), whether
// node:child_process or Node's own copy of undici (what globalThis.fetch and Headers load) was ever
// loaded, and every file required from node_modules/undici.
const PROBE = join(scratch, 'probe.cjs');
writeFileSync(
  PROBE,
  `'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');
const dist = ${JSON.stringify(DIST)};
const Script = vm.Script;
const scripts = [];
vm.Script = class extends Script {
  constructor(code, options) {
    super(code, options);
    const file = String(options && options.filename);
    if (file.startsWith(dist + path.sep)) {
      scripts.push({
        part: path.relative(dist, file).replace(/\\.cjs$/, ''),
        given: options.cachedData !== undefined,
        rejected: this.cachedDataRejected === true,
      });
    }
  }
};
// process.stdin is made on first access: the run's IO asks the OS whether it is a terminal instead.
let stdinMade = false;
const stdin = Object.getOwnPropertyDescriptor(process, 'stdin');
Object.defineProperty(process, 'stdin', {
  configurable: true,
  enumerable: stdin.enumerable,
  get() {
    stdinMade = true;
    return stdin.get.call(process);
  },
});
const undiciFiles = [];
const load = Module._load;
Module._load = function (request, parent, isMain) {
  const loaded = load.apply(this, arguments);
  try {
    const file = Module._resolveFilename(request, parent, isMain);
    if (file.includes(path.join('node_modules', 'undici') + path.sep)) undiciFiles.push(file);
  } catch {}
  return loaded;
};
process.on('exit', () => {
  const list = process.moduleLoadList;
  fs.writeFileSync(process.env.STARTUP_PROBE_OUT, JSON.stringify({
    scripts,
    childProcess: list.includes('NativeModule child_process'),
    nodeUndici: list.includes('NativeModule internal/deps/undici/undici'),
    net: list.includes('NativeModule net'),
    v8: list.includes('NativeModule v8'),
    tty: list.includes('NativeModule tty'),
    stdinMade,
    undiciFiles,
  }));
});
`,
);

interface Out {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface Probe {
  scripts: { part: string; given: boolean; rejected: boolean }[];
  childProcess: boolean;
  nodeUndici: boolean;
  net: boolean;
  v8: boolean;
  tty: boolean;
  stdinMade: boolean;
  undiciFiles: string[];
}

/** The program's own entries of a probe (the other parts are checked where they matter). */
const program = (p: Probe | null) =>
  p?.scripts.filter((s) => s.part === 'agents').map(({ part: _, ...s }) => s);

/** The kinds of run a cache file says it covers (its first line). */
function kindsOf(file: string): string[] {
  const text = readFileSync(file, 'latin1');
  return text
    .slice(0, text.indexOf('\n'))
    .replace(/^agents-v8-cache /, '')
    .split(',');
}

/** A fresh cache home and the environment that points the launcher at it. */
function cacheHome(): { xdg: string; env: NodeJS.ProcessEnv; file: string } {
  const xdg = mkdtempSync(join(scratch, 'xdg-'));
  const file = join(xdg, 'agents', `v8-agents-${BUILD ?? 'dev'}-${process.version}-${process.arch}.bin`);
  return { xdg, env: cliEnv({ XDG_CACHE_HOME: xdg }), file };
}

/** Runs the binary with pipes and a closed stdin, under the probe; returns its output and what it saw. */
function runBin(
  args: string[],
  env: NodeJS.ProcessEnv,
  stdin: 'pipe' | 'ignore' = 'pipe',
): Promise<Out & { probe: Probe | null }> {
  const probeOut = join(mkdtempSync(join(scratch, 'probe-')), 'probe.json');
  return new Promise((resolve, reject) => {
    // 'ignore': /dev/null, as a CI job's stdin.
    const child = spawn(process.execPath, ['--require', PROBE, BIN, ...args], {
      cwd: ROOT,
      env: { ...env, STARTUP_PROBE_OUT: probeOut },
      stdio: [stdin, 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr!.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      // A process that died before exiting (a V8 fatal error) left no probe file.
      const probe = existsSync(probeOut) ? (JSON.parse(readFileSync(probeOut, 'utf8')) as Probe) : null;
      resolve({ code, stdout, stderr, probe });
    });
    child.stdin?.end();
  });
}

/** What main prints for `args` in this process, with the same environment. */
async function inProcess(args: string[], env: NodeJS.ProcessEnv): Promise<Out> {
  const r = await runMain(args, { env });
  return { code: r.code, stdout: r.stdout, stderr: r.stderr };
}

const output = ({ code, stdout, stderr }: Out): Out => ({ code, stdout, stderr });

/** Runs `node BIN …args` in a pseudo-terminal `cols` wide; resolves to what the terminal showed. */
function runInTerminal(args: string[], env: NodeJS.ProcessEnv, cols: number) {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = `stty cols ${cols} rows 40; exec ${[process.execPath, BIN, ...args].map(q).join(' ')}`;
  return new Promise<{ code: number | null; screen: string }>((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: { TERM: 'xterm-256color', ...env },
    });
    let screen = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (screen += c));
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, screen });
    });
  });
}

describe('the launcher answers like main in-process', () => {
  it('--version and --help print the same, byte for byte, with exit 0', async () => {
    const { env } = cacheHome();
    for (const args of [['--version'], ['--help']]) {
      const [bin, main] = await Promise.all([runBin(args, env), inProcess(args, env)]);
      expect({ args, ...output(bin) }).toEqual({ args, ...main });
    }
    // The cases above really are the interesting ones: a version number, and help on stdout.
    expect((await inProcess(['--version'], env)).stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const help = await inProcess(['--help'], env);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: agents \[options\] \[command\]/);
  });

  it('a usage error exits 2 with one error line, as main does', async () => {
    const { env } = cacheHome();
    const args = ['tail', 'last', '-n', 'many'];
    const [bin, main] = await Promise.all([runBin(args, env), inProcess(args, env)]);
    expect(output(bin)).toEqual(main);
    expect(bin.code).toBe(2);
    expect(bin.stdout).toBe('');
    expect(bin.stderr).toMatch(/^error: [^\n]+\n$/);
  });

  it('wraps help to the terminal width like main (40 columns)', async () => {
    const { env } = cacheHome();
    const t = await runInTerminal(['--help'], env, 40);
    expect(t.code).toBe(0);
    const narrow = await runMain(['--help'], { env, tty: { stdout: true, columns: 40 } });
    expect(t.screen.replace(/\r\n/g, '\n')).toBe(narrow.stdout);
    // The width is really honoured: the same help at 120 columns wraps differently.
    const wide = await runMain(['--help'], { env, tty: { stdout: true, columns: 120 } });
    expect(wide.stdout).not.toBe(narrow.stdout);
  });
});

describe('the V8 code cache', () => {
  it('is written after the first run, private, keyed by build, Node and CPU; the next run uses it', async () => {
    expect(BUILD).toMatch(/^[0-9a-f]{16}$/);
    const { env, file } = cacheHome();
    const first = await runBin(['--help'], env);
    expect(first.code).toBe(0);
    expect(program(first.probe)).toEqual([{ given: false, rejected: false }]);
    const made = statSync(file);
    expect(made.mode & 0o777).toBe(0o600);
    expect(statSync(dirname(file)).mode & 0o777).toBe(0o700);
    expect(made.size).toBeGreaterThan(1000);
    expect(kindsOf(file)).toEqual(['help']);
    const bytes = readFileSync(file);

    // Another help: a run of a kind the cache has seen.
    const args = ['create', '--help'];
    const [next, main] = await Promise.all([runBin(args, env), inProcess(args, env)]);
    expect(output(next)).toEqual(main);
    // V8 took the cache, so the launcher left the file alone.
    expect(program(next.probe)).toEqual([{ given: true, rejected: false }]);
    expect(statSync(file).ino).toBe(made.ino);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    // Help needs no node:child_process (commander's, for executable subcommands: loaded lazily).
    expect(next.probe?.childProcess).toBe(false);
  });

  it("writing a cache removes other builds' caches of that part once a day old (an upgrade's leftovers)", async () => {
    const { env, file } = cacheHome();
    const dir = dirname(file);
    mkdirSync(dir, { recursive: true });
    const old = 'v8-agents-00000000000000aa-v20.0.0-x64.bin';
    const recent = 'v8-agents-00000000000000bb-v20.0.0-x64.bin';
    const otherNode = `v8-agents-${BUILD}-v99.0.0-x64.bin`;
    const otherPart = 'v8-http-00000000000000aa-liftoff-v20.0.0-x64.bin';
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    for (const name of [old, recent, otherNode, otherPart]) {
      writeFileSync(join(dir, name), 'x');
      if (name !== recent) utimesSync(join(dir, name), twoDaysAgo, twoDaysAgo);
    }
    const r = await runBin(['--help'], env);
    expect(r.code).toBe(0);
    expect(readdirSync(dir).sort()).toEqual([otherPart, recent, basename(file), otherNode].sort());
  });

  it('a run of a new kind adds what it compiled to the cache, once', async () => {
    const { env, file } = cacheHome();
    expect((await runBin(['--version'], env)).code).toBe(0);
    const versionOnly = statSync(file);
    // help formats every command: functions the --version run never compiled.
    const help = await runBin(['--help'], env);
    expect(program(help.probe)).toEqual([{ given: true, rejected: false }]);
    const extended = statSync(file);
    expect(extended.ino).not.toBe(versionOnly.ino);
    expect(extended.size).toBeGreaterThan(versionOnly.size);
    expect(kindsOf(file)).toEqual(['version', 'help']);
    // The extended cache is taken, and a run of a kind it has seen leaves it alone.
    for (const args of [['--help'], ['--version'], ['show', '--help']]) {
      const r = await runBin(args, env);
      expect({ args, scripts: program(r.probe) }).toEqual({
        args,
        scripts: [{ given: true, rejected: false }],
      });
    }
    expect(statSync(file).ino).toBe(extended.ino);
    // A usage error is a kind of its own (the parse of show failed; its action never ran).
    expect((await runBin(['show', 'nope'], env)).code).toBe(2);
    expect(kindsOf(file)).toEqual(['version', 'help', 'show (usage)']);
  });

  it('a truncated or corrupt cache file is not used, the run answers the same, and a good one replaces it', async () => {
    const { env, file } = cacheHome();
    expect((await runBin(['--version'], env)).code).toBe(0);
    // The file holds a line of kinds, then V8's cache twice; V8 checks only its header (node:v8 would be
    // needed to make it check more), so damage behind the header, offered to V8, would crash the run.
    const good = readFileSync(file);
    const head = good.subarray(0, good.indexOf(10) + 1);
    const body = good.subarray(head.length);
    const half = body.length / 2;
    expect(body.subarray(0, half).equals(body.subarray(half))).toBe(true);
    const truncated = good.subarray(0, head.length + half);
    // A bad disk block: V8's header (version, source and length checks) intact, the code behind it not.
    const flipped = Buffer.from(good);
    for (let i = head.length + 4096; i < head.length + 4096 + 256; i++) flipped[i] = flipped[i]! ^ 0xff;
    const garbage = Buffer.concat([head, Buffer.alloc(body.length, 0x5a)]);
    const args = ['--help'];
    const main = await inProcess(args, env);
    for (const [name, bad, scripts] of [
      // The two copies differ: not offered to V8.
      ['truncated', truncated, [{ given: false, rejected: false }]],
      ['flipped', flipped, [{ given: false, rejected: false }]],
      // The same bytes twice, but no V8 cache: V8 rejects it by its header.
      ['garbage', garbage, [{ given: true, rejected: true }]],
    ] as const) {
      writeFileSync(file, bad, { mode: 0o600 });
      const r = await runBin(args, env);
      expect({ name, ...output(r) }).toEqual({ name, ...main });
      expect({ name, scripts: program(r.probe) }).toEqual({ name, scripts });
      const replaced = readFileSync(file);
      expect(replaced.equals(bad)).toBe(false);
      expect(replaced.length).toBeGreaterThan(1000);
    }
  });

  it('an unwritable cache directory does not break a run', async () => {
    // A file where the cache directory should be: nothing can be read or made there, even by root.
    const xdg = join(mkdtempSync(join(scratch, 'xdg-')), 'not-a-dir');
    writeFileSync(xdg, 'in the way');
    const env = cliEnv({ XDG_CACHE_HOME: xdg });
    const args = ['--help'];
    const [r, main] = await Promise.all([runBin(args, env), inProcess(args, env)]);
    expect(output(r)).toEqual(main);
    expect(r.code).toBe(0);
    expect(program(r.probe)).toEqual([{ given: false, rejected: false }]);
    expect(readFileSync(xdg, 'utf8')).toBe('in the way');
  });
});

describe('what a run loads', () => {
  // Commands that send no request run on the program alone: no part of undici, ours (dist/http.cjs, or
  // anything from node_modules/undici) or Node's own (what touching globalThis.fetch or Headers loads).
  // node:v8 (for --liftoff-only) only before undici's parts load; no output stream (a pipe's loads
  // node:net) for a run that only writes: to pipes, here, so no node:net at all.
  it.each<[string, string[], number]>([
    ['--help', ['--help'], 0],
    ['a usage error found by a parser', ['show', 'not-a-session'], 2],
    ['a usage error found by the checks', ['create', '-a', 'claude', '--file', join(scratch, 'none.md')], 2],
    ['config path', ['config', 'path'], 0],
  ])('%s: the program alone, no HTTP code, no streams', async (_name, args, code) => {
    const { env } = cacheHome();
    const r = await runBin(args, env);
    expect(r.code, r.stderr).toBe(code);
    expect(r.probe).toMatchObject({
      scripts: [{ part: 'agents' }],
      nodeUndici: false,
      undiciFiles: [],
      v8: false,
      net: false,
    });
  });

  it('completion loads its own part beside the program (the emulator and the scripts are kept out of it)', async () => {
    const { env } = cacheHome();
    const r = await runBin(['completion', 'bash'], env);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('-F _agents agents');
    expect(r.probe?.scripts.map((s) => s.part)).toEqual(['agents', 'completion']);
  });

  it('with stdin on /dev/null, as in a CI job, config path asks no terminal anything (no node:tty)', async () => {
    const { env } = cacheHome();
    const r = await runBin(['config', 'path'], env, 'ignore');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/config\.json\n$/);
    expect(r.probe).toMatchObject({ tty: false, net: false, stdinMade: false });
  });

  it('a usage error writes its lines without making the stderr stream (a pipe: node:net)', async () => {
    const { env } = cacheHome();
    const args = ['show', 'not-a-session'];
    const [r, main] = await Promise.all([runBin(args, env), inProcess(args, env)]);
    expect(output(r)).toEqual(main);
    expect(r.stderr).toMatch(/^error: not a session: "not-a-session"\nhint: \S/);
    expect(r.probe?.net).toBe(false);
  });

  it("show sends its requests with undici's parts from dist/http.cjs, never Node's own undici", async () => {
    const em = await startEmulator({ port: 0, timeScale: 0.05, rateLimit: false });
    try {
      const { env } = cacheHome();
      Object.assign(env, { AGENTS_BASE_URL: em.url, AGENTS_API_KEY: 'agents-dev-key' });
      const created = await runMain(['create', '-a', 'claude', 'hello'], { env });
      expect(created.code, created.stderr).toBe(0);
      const r = await runBin(['show', created.stdout.trim(), '--json'], env);
      expect(r.code, r.stderr).toBe(0);
      expect(em.stats().byRoute['GET /sessions/:id']).toBe(1);
      expect(r.probe).toMatchObject({
        scripts: [{ part: 'agents' }, { part: 'http' }],
        nodeUndici: false,
        undiciFiles: [],
        // The control: the probe does see these load.
        v8: true,
        net: true,
        // Nothing reads a message: stdin is never made (that costs milliseconds, even for /dev/null).
        stdinMade: false,
      });
      // The text of a conversation in plain ASCII needs no string-width (its set-up costs about 20 ms).
      const text = await runBin(['show', created.stdout.trim()], env);
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toContain('hello');
      expect(text.probe?.scripts.map((s) => s.part)).toEqual(['agents', 'http']);
    } finally {
      await em.close();
    }
  });
});

describe('conf', () => {
  it('reads the config file without ajv, which loads only to write it (conf compiles the schema then)', async () => {
    const em = await startEmulator({ port: 0, timeScale: 0.05, rateLimit: false });
    try {
      const { env } = cacheHome();
      const created = await runMain(['create', '-a', 'claude', 'hello'], {
        env: { ...env, AGENTS_BASE_URL: em.url, AGENTS_API_KEY: 'agents-dev-key' },
      });
      expect(created.code, created.stderr).toBe(0);
      const config = { profiles: { default: { 'api-key': 'agents-dev-key', 'base-url': em.url } } };
      writeFileSync(join(env.AGENTS_CONFIG_DIR!, 'config.json'), JSON.stringify(config));
      const shown = await runBin(['show', created.stdout.trim(), '--json'], env);
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.probe?.scripts.map((s) => s.part)).toEqual(['agents', 'vendor/conf', 'http']);
      const set = await runBin(['config', 'set', 'agent', 'codex'], env);
      expect(set.code, set.stderr).toBe(0);
      expect(set.probe?.scripts.map((s) => s.part)).toEqual([
        'agents',
        'vendor/lockfile',
        'vendor/conf',
        'vendor/ajv',
      ]);
    } finally {
      await em.close();
    }
  });
});
