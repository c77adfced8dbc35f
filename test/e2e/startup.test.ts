// The fast start-up path of bin/agents.js (issue 2): a CommonJS launcher that answers help, version and
// usage errors from dist/cli.cjs (parse only, with a V8 code cache on Node 20) and hands every command
// that reaches its action to the full ESM program, dist/cli.js. These tests hold the fast path to
// exactly what the full program prints, and check that the shortcuts are really taken.
import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, cliEnv } from '../support/run-cli.js';
import { fixture, UUID } from './fixture.js';

const scratch = mkdtempSync(join(tmpdir(), 'agents-startup-'));

// The full program without the launcher: dist/cli.js's main, as bin/agents.js ran it before.
const DIRECT = join(scratch, 'direct.mjs');
writeFileSync(
  DIRECT,
  `const { main } = await import(${JSON.stringify(pathToFileURL(join(ROOT, 'dist', 'cli.js')).href)});\n` +
    'await main(process.argv);\n',
);

interface Out {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `node script …args` with pipes and a closed stdin. */
function run(script: string, args: string[], env: NodeJS.ProcessEnv, nodeArgs: string[] = []): Promise<Out> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, script, ...args], { cwd: ROOT, env });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end();
  });
}

/** Runs `node script …args` in a pseudo-terminal `cols` wide; resolves to what the terminal showed. */
function runInTerminal(script: string, args: string[], env: NodeJS.ProcessEnv, cols: number) {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  const command = `stty cols ${cols} rows 40; exec ${[process.execPath, script, ...args].map(q).join(' ')}`;
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

// Everything that ends before an action: help in all its spellings, version, and usage errors.
const PARSE_ONLY: string[][] = [
  [],
  ['--help'],
  ['-h'],
  ['--version'],
  ['-V'],
  ['--quiet', '--version'],
  ['--json', '--help'],
  ['help'],
  ['help', 'create'],
  ['create', '--help'],
  ['send', '-h'],
  ['config'],
  ['config', '--help'],
  ['emulator', '--help'],
  ['bogus'],
  ['--bogus'],
  ['crate', 'hello'],
  ['show'],
  ['show', 'last', '--limit', '5', '--all'],
  ['tail', 'last', '-n', 'many'],
  ['create', '--agent', 'nope', 'hi'],
  ['emulator', '--port', '99999'],
  ['emulator', '--fault', 'teapot'],
];

const ENVS: Record<string, NodeJS.ProcessEnv> = {
  plain: {},
  NO_COLOR: { NO_COLOR: '1' },
  FORCE_COLOR: { FORCE_COLOR: '1' },
};

describe('the launcher answers like the full program', () => {
  for (const [name, extra] of Object.entries(ENVS)) {
    it(`prints the same, byte for byte, with the same exit code (${name})`, async () => {
      const env = cliEnv(extra);
      const pairs = [];
      // A few at a time: every case is two processes.
      for (let i = 0; i < PARSE_ONLY.length; i += 4) {
        const batch = PARSE_ONLY.slice(i, i + 4).map(async (args) => {
          const [fast, full] = await Promise.all([run(BIN, args, env), run(DIRECT, args, env)]);
          return { args, fast, full };
        });
        pairs.push(...(await Promise.all(batch)));
      }
      for (const { args, fast, full } of pairs) {
        expect({ args, ...fast }).toEqual({ args, ...full });
      }
      // The cases above really are the interesting ones: help on stdout, usage errors with exit 2.
      const help = pairs.find((p) => p.args.join(' ') === '--help')!;
      expect(help.fast.stdout).toMatch(/^Usage: agents \[options\] \[command\]/);
      expect(pairs.find((p) => p.args[0] === 'bogus')!.fast.code).toBe(2);
      expect(pairs.find((p) => p.args[0] === '--version')!.fast.stdout).toMatch(/^\d+\.\d+\.\d+/);
    });
  }

  it('wraps help to the terminal width like the full program (40 and 120 columns)', async () => {
    const env = cliEnv();
    for (const cols of [40, 120]) {
      for (const args of [['--help'], ['create', '--help']]) {
        const [fast, full] = await Promise.all([
          runInTerminal(BIN, args, env, cols),
          runInTerminal(DIRECT, args, env, cols),
        ]);
        expect(fast.code).toBe(0);
        expect(fast.screen).toBe(full.screen);
      }
    }
    // The width is really honoured: the option descriptions wrap differently at 40 and at 120 columns.
    const [narrow, wide] = await Promise.all([
      runInTerminal(BIN, ['--help'], env, 40),
      runInTerminal(BIN, ['--help'], env, 120),
    ]);
    expect(narrow.screen).not.toBe(wide.screen);
  });
});

describe('what the fast path loads', () => {
  /** A copy of the package with only bin/, package.json and these files of dist/. */
  function copyWith(files: string[]): string {
    const dir = mkdtempSync(join(scratch, 'pkg-'));
    cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
    for (const f of files) {
      if (existsSync(join(ROOT, 'dist', f))) {
        cpSync(join(ROOT, 'dist', f), join(dir, 'dist', f), { recursive: true });
      }
    }
    return dir;
  }

  it('answers help, version and usage errors without the ESM build, and hands actions to it', async () => {
    const dir = copyWith(['cli.cjs', 'v8-cache']);
    const env = cliEnv();
    for (const args of [['--help'], ['--version'], ['create', '--help'], ['bogus'], ['show']]) {
      const [alone, real] = await Promise.all([
        run(join(dir, 'bin', 'agents.js'), args, env),
        run(BIN, args, env),
      ]);
      expect({ args, ...alone }).toEqual({ args, ...real });
    }
    // `config path` reaches its action: the launcher imports dist/cli.js, which this copy lacks.
    const handed = await run(join(dir, 'bin', 'agents.js'), ['config', 'path'], env);
    expect(handed.code).not.toBe(0);
    expect(handed.stderr).toContain(join(dir, 'dist', 'cli.js'));
    expect((await run(BIN, ['config', 'path'], env)).code).toBe(0);
  });

  it('prints the saved help for a lone --help to a pipe or a file, and asks commander otherwise', async () => {
    const dir = copyWith(['help.txt']);
    const bin = join(dir, 'bin', 'agents.js');
    const env = cliEnv();
    const real = await run(BIN, ['--help'], env);
    for (const args of [['--help'], ['-h']]) {
      expect(await run(bin, args, env)).toEqual(real);
      expect(await run(bin, args, cliEnv({ NO_COLOR: '1' }))).toEqual(real);
      const file = join(mkdtempSync(join(scratch, 'out-')), 'help.txt');
      const r = spawnSync(
        `${JSON.stringify(process.execPath)} ${JSON.stringify(bin)} ${args[0]!} > ${file}`,
        {
          shell: true,
          env,
        },
      );
      expect(r.status).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe(real.stdout);
    }
    // Anything else needs dist/cli.cjs, which this copy lacks: commander is asked, not the saved text.
    const needsCommander = (r: Out) => r.code !== 0 && r.stderr.includes(join(dir, 'dist', 'cli.cjs'));
    expect(needsCommander(await run(bin, ['--help'], cliEnv({ FORCE_COLOR: '1' })))).toBe(true);
    expect(needsCommander(await run(bin, ['--help'], cliEnv({ CLICOLOR_FORCE: '1' })))).toBe(true);
    expect(needsCommander(await run(bin, ['--json', '--help'], env))).toBe(true);
    expect(needsCommander(await run(bin, ['help'], env))).toBe(true);
    const tty = await runInTerminal(bin, ['--help'], env, 80);
    expect(tty.code).not.toBe(0);
    expect(tty.screen).toContain('cli.cjs');
  });

  it("help from commander: no node:child_process (commander's, for executable subcommands); the code cache", async () => {
    const probe = join(scratch, 'probe.cjs');
    writeFileSync(
      probe,
      "process.on('exit', () => process.stderr.write('\\nLOADED ' + JSON.stringify(process.moduleLoadList)));\n",
    );
    const r = await run(BIN, ['create', '--help'], cliEnv(), ['--require', probe]);
    expect(r.code).toBe(0);
    const loaded = JSON.parse(r.stderr.split('\nLOADED ')[1]!) as string[];
    expect(loaded).toContain('NativeModule fs'); // the probe sees the list at all
    expect(loaded).not.toContain('NativeModule child_process');
    // The launcher found the build's code cache and compiled through node:vm with it.
    expect(loaded).toContain('NativeModule vm');
  });

  it('runs a command once: the parse-only pass hands over before the action', async () => {
    const f = await fixture();
    const r = await f.run(['create', '-a', 'claude', 'hello']);
    expect(r.code).toBe(0);
    expect(r.stdout.trim()).toMatch(UUID);
    expect(f.em.stats().sessionsCreated).toBe(1);
  });
});

describe('the V8 code cache of dist/cli.cjs', () => {
  /** In a fresh `node`: load dist/cli.cjs of `root` with `cache` as cachedData; was it rejected? */
  function rejected(root: string, cache: Buffer | undefined): boolean {
    const code = `
      const { loadParserWithCache } = require(${JSON.stringify(join(root, 'bin', 'agents.js'))});
      const cache = process.argv[1] ? require('node:fs').readFileSync(process.argv[1]) : undefined;
      const { exports, script } = loadParserWithCache(cache);
      if (typeof exports.main !== 'function') throw new Error('no main');
      process.stdout.write(String(script.cachedDataRejected));`;
    let arg = '';
    if (cache) {
      arg = join(mkdtempSync(join(scratch, 'cache-')), 'cache.bin');
      writeFileSync(arg, cache);
    }
    const r = spawnSync(process.execPath, ['-e', code, arg], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(r.stderr);
    return r.stdout === 'true';
  }

  it('is written by the build for this Node and V8 takes it', () => {
    const dir = join(ROOT, 'dist', 'v8-cache');
    const files = readdirSync(dir);
    expect(files).toEqual([`cli.cjs.${process.version}-v8-${process.versions.v8}-${process.arch}.bin`]);
    expect(rejected(ROOT, readFileSync(join(dir, files[0]!)))).toBe(false);
  });

  it('is only an optimisation: garbage or a stale cache is rejected and the launcher answers the same', async () => {
    const dir = mkdtempSync(join(scratch, 'pkg-'));
    cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
    cpSync(join(ROOT, 'dist'), join(dir, 'dist'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
    const cacheFile = join(
      dir,
      'dist',
      'v8-cache',
      `cli.cjs.${process.version}-v8-${process.versions.v8}-${process.arch}.bin`,
    );
    const source = readFileSync(join(dir, 'dist', 'cli.cjs'), 'utf8');
    const garbage = Buffer.alloc(64 * 1024, 0x5a);
    // A cache made for other source: the same program with one more line.
    writeFileSync(join(dir, 'dist', 'cli.cjs'), `${source}\n// another build\n`);
    const stale = Buffer.from(
      spawnSync(
        process.execPath,
        [
          '-e',
          `const { loadParserWithCache } = require(${JSON.stringify(join(dir, 'bin', 'agents.js'))});
           process.stdout.write(loadParserWithCache(undefined).script.createCachedData().toString('base64'));`,
        ],
        { encoding: 'utf8' },
      ).stdout,
      'base64',
    );
    writeFileSync(join(dir, 'dist', 'cli.cjs'), source);
    expect(stale.length).toBeGreaterThan(1000);
    expect(rejected(dir, garbage)).toBe(true);
    expect(rejected(dir, stale)).toBe(true);

    const env = cliEnv();
    for (const cache of [garbage, stale]) {
      writeFileSync(cacheFile, cache);
      for (const args of [['--help'], ['create', '--help'], ['bogus'], ['config', 'path']]) {
        const [copy, real] = await Promise.all([
          run(join(dir, 'bin', 'agents.js'), args, env),
          run(BIN, args, env),
        ]);
        expect({ args, ...copy }).toEqual({ args, ...real });
      }
    }
  });
});
