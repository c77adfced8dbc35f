// Start-up of the built binary: bin/agents.js turns on Node's compile cache and imports dist/agents.js, one
// esbuild ES module build split by command. Checked on the binary itself: it answers like main() does
// in-process; help and a usage error load no HTTP code, while `show` does; `show` over HTTPS, as the service
// is reached (a test authority in NODE_EXTRA_CA_CERTS), reads the files it reads over http; and a --debug
// stack trace names our src/ files (source maps, on only then). The packed tarball is tarball.test.ts's.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, cliEnv } from '../support/run-cli.js';
import { runMain } from '../support/main.js';
import { fileSession } from '../support/file-session.js';
import { oldNode } from '../support/old-node.js';
import { missing, titled } from '../support/tools.js';

const scratch = mkdtempSync(join(tmpdir(), 'agents-startup-'));

// Preloaded with --require: writes, as the process exits, what it loaded of Node's own modules, the files
// of dist/ it read (module.registerHooks sees each ES module loaded) and whether source maps were on.
// stdout and stderr stay exactly the program's.
const PROBE = join(scratch, 'probe.cjs');
writeFileSync(
  PROBE,
  `const files = [];
require('node:module').registerHooks({
  load(url, context, next) {
    if (url.startsWith('file:')) files.push(require('node:url').fileURLToPath(url));
    return next(url, context);
  },
});
process.on('exit', () => {
  require('node:fs').writeFileSync(process.env.STARTUP_PROBE_OUT, JSON.stringify({
    builtins: process.moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => m.slice(13)),
    files,
    sourceMaps: process.sourceMapsEnabled,
  }));
});
`,
);

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  probe: { builtins: string[]; files: string[]; sourceMaps: boolean };
}

/**
 * Runs `node bin …args` with pipes and stdin on /dev/null, as a script does, under the probe; `node` is
 * another Node and the options it takes before the probe.
 */
function runBin(args: string[], env: NodeJS.ProcessEnv, node = [process.execPath]): Promise<Run> {
  const probeOut = join(mkdtempSync(join(scratch, 'probe-')), 'probe.json');
  return new Promise((resolve, reject) => {
    const child = spawn(node[0]!, [...node.slice(1), '--require', PROBE, BIN, ...args], {
      cwd: dirname(dirname(BIN)),
      env: { ...env, STARTUP_PROBE_OUT: probeOut },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const killer = setTimeout(() => child.kill('SIGKILL'), 90_000); // a hang guard only
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      const probe = JSON.parse(readFileSync(probeOut, 'utf8')) as Run['probe'];
      resolve({ code, stdout, stderr, probe });
    });
  });
}

/**
 * What no run that sends no request may load: Node's HTTP/1 client (what a request without a proxy goes
 * through), and the HTTP/2 client and Node's own copy of undici that undici's index loads.
 */
const HTTP = ['http', '_http_client', 'http2', 'internal/deps/undici/undici'];
const http = (r: Run) => r.probe.builtins.filter((m) => HTTP.includes(m));

/** The files read that hold the MCP SDK (its stdio server transport, by the name the build keeps). */
const mcpSdk = (r: Run) =>
  r.probe.files.filter((f) => readFileSync(f, 'utf8').includes('StdioServerTransport'));

/** The files read that hold the ACP SDK (its method table, by the protocol's own name for one method). */
const acpSdk = (r: Run) =>
  r.probe.files.filter((f) => readFileSync(f, 'utf8').includes('session/set_config_option'));

/** The files a run read but the launcher. */
const dist = (r: Run) => r.probe.files.filter((f) => !f.endsWith(join('bin', 'agents.js')));

/** The same, by name without esbuild's hash, sorted. */
const distNames = (r: Run) =>
  dist(r)
    .map((f) =>
      f
        .split(/[\\/]/)
        .at(-1)
        ?.replace(/-[A-Z0-9]+\.js$/, ''),
    )
    .sort();

/**
 * What `show --json` reads of dist/: agents.js and the chunk of what cli.ts imports, the request runtime's
 * chunk (scripts/request-runtime.mjs) and the two entries it goes through (run/run-command.ts, show's
 * run.ts: a few lines each).
 */
const SHOW_READS = ['agents.js', 'chunk', 'chunk', 'run', 'run-command'];

const SESSION = '0b5e8f3c-1d2a-4c3b-9e8f-7a6b5c4d3e2f';

const file = fileSession();

describe('the binary', () => {
  it('answers the version and the root help (dist/help.js: agents, --help, -h, --version, -V) and a usage error as main does in-process', async () => {
    for (const [args, code] of [
      [['--version'], 0],
      [['-V'], 0],
      [['--help'], 0],
      [['-h'], 0],
      [[], 2],
      [['--json', '--help'], 0],
      [['show', 'not-a-session'], 2],
    ] as const) {
      const [bin, main] = await Promise.all([
        runBin([...args], file.env),
        runMain([...args], { env: file.env }),
      ]);
      expect({ args, code: bin.code, stdout: bin.stdout, stderr: bin.stderr }).toEqual({
        args,
        code,
        stdout: main.stdout,
        stderr: main.stderr,
      });
    }
  });

  it.each<[string, string[], number]>([
    ['--help', ['--help'], 0],
    ['a usage error found by a parser', ['show', 'not-a-session'], 2],
    ['a usage error found by the checks', ['create', '-a', 'claude', '--file', join(scratch, 'none.md')], 2],
    ['a usage error of commander (a choice)', ['create', '-a', 'nobody', 'hi'], 2],
  ])('%s loads no HTTP code, and no source maps', async (_name, args, code) => {
    const r = await runBin(args, file.env);
    expect(r.code, r.stderr).toBe(code);
    expect(http(r)).toEqual([]);
    expect(r.probe.sourceMaps).toBe(false);
  });

  it('show loads the HTTP code (the control for the case above), and prints the session', async () => {
    const r = await runBin(['show', file.sessionId, '--json'], file.env);
    expect(r.code, r.stderr).toBe(0);
    expect((JSON.parse(r.stdout) as { session: { id: string } }).session.id).toBe(file.sessionId);
    expect(http(r)).toEqual(expect.arrayContaining(['http', '_http_client']));
  });

  it('--help and show load neither the MCP nor the ACP SDK; agents mcp and agents acp load theirs (and end at once on an empty stdin)', async () => {
    const [help, version, show, mcp, acp] = await Promise.all([
      runBin(['--help'], file.env),
      runBin(['--version'], file.env),
      runBin(['show', file.sessionId, '--json'], file.env),
      runBin(['mcp'], file.env),
      runBin(['acp'], file.env),
    ]);
    expect([help.code, version.code, show.code, mcp.code, acp.code]).toEqual([0, 0, 0, 0, 0]);
    expect(help.probe.files.length).toBeGreaterThan(0);
    // Each file of dist/ a run loads costs the ES module loader about a millisecond: --help reads the
    // launcher and dist/help.js (commander and the commands' heads, src/cli/help.ts); show reads SHOW_READS. It
    // read 34 before the request runtime was one chunk, 11 before the libraries it shares with lazily loaded
    // ones (env-paths, string-width) joined it and the run's own modules stopped importing each other lazily.
    for (const r of [help, version])
      expect(dist(r).map((f) => f.split(/[\\/]/).slice(-2).join('/'))).toEqual(['dist/help.js']);
    expect(distNames(show)).toEqual(SHOW_READS);
    for (const r of [help, show]) expect([...mcpSdk(r), ...acpSdk(r)]).toEqual([]);
    expect(mcpSdk(mcp)).not.toEqual([]);
    expect(acpSdk(mcp)).toEqual([]);
    expect(acpSdk(acp)).not.toEqual([]);
    expect(mcpSdk(acp)).toEqual([]);
    expect([mcp.stdout, acp.stdout]).toEqual(['', '']);
  });

  const noOpenssl = missing('openssl');
  describe.skipIf(noOpenssl !== undefined)(titled('over HTTPS, as the service is reached', noOpenssl), () => {
    const secure = fileSession({ tls: true });

    it('show trusts the test authority through NODE_EXTRA_CA_CERTS, loads node:https, and reads the files it reads over http', async () => {
      const r = await runBin(['show', secure.sessionId, '--json'], secure.env);
      expect(r.code, r.stderr).toBe(0);
      expect((JSON.parse(r.stdout) as { session: { id: string } }).session.id).toBe(secure.sessionId);
      // `tls` and `https` by the names every Node gives them (Node 22's _tls_wrap is internal/tls/wrap on 24).
      expect(r.probe.builtins).toEqual(expect.arrayContaining(['https', 'tls']));
      expect(distNames(r)).toEqual(SHOW_READS);
      expect([...mcpSdk(r), ...acpSdk(r)]).toEqual([]);
    });

    it('show without the authority is refused the certificate: exit 1 (a network failure), what to check, nothing printed', async () => {
      const env = { ...secure.env };
      delete env.NODE_EXTRA_CA_CERTS;
      const r = await runBin(['show', secure.sessionId, '--json'], env);
      expect([r.code, r.stdout]).toEqual([1, '']);
      expect(r.stderr).toMatch(/TLS failure talking to https:\/\/127\.0\.0\.1:\d+/);
      expect(r.stderr).toContain('NODE_EXTRA_CA_CERTS');
    });
  });

  it("only a command that sends a request reads the key: with the profile's key in the keychain, --help, a usage error, ls, budget and completion never reach the keychain; show does", async () => {
    // The profile says its key is in the keychain. The session bus is a socket that counts who connects and
    // hangs up on them at once: the keychain's helper (the one process that loads the native library)
    // connects to it to read the key, and nothing else does.
    const dir = mkdtempSync(join(scratch, 'keychain-'));
    const { origin } = new URL(file.em.url);
    const profile = {
      'base-url': file.em.url,
      'key-store': 'keychain',
      'key-digest': `${origin} ${'0'.repeat(64)}`,
    };
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ profiles: { default: profile } }), {
      mode: 0o600,
    });
    let connections = 0;
    const bus = createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    const socket = join(dir, 'bus');
    await new Promise<void>((resolve) => bus.listen(socket, resolve));
    try {
      const env = {
        ...cliEnv(),
        AGENTS_CONFIG_DIR: dir,
        AGENTS_KEYCHAIN: '1',
        DBUS_SESSION_BUS_ADDRESS: `unix:path=${socket}`,
      };
      const quiet = await Promise.all([
        runBin(['--help'], env),
        runBin(['show'], env),
        runBin(['ls'], env),
        runBin(['budget'], env),
        runBin(['completion', 'bash'], env),
      ]);
      expect(quiet.map((r) => r.code)).toEqual([0, 2, 0, 0, 0]);
      expect(connections).toBe(0);
      const show = await runBin(['show', SESSION], env);
      expect(show.code).toBe(3);
      expect(show.stderr).toContain('could not read it from the system keychain');
      expect(connections).toBeGreaterThan(0);
    } finally {
      await new Promise((resolve) => bus.close(resolve));
    }
  });

  it('with --debug or AGENTS_DEBUG, a stack trace names the src/ files and functions it passed through', async () => {
    // No base URL: the run ends in an error from the settings, stack and all.
    const bare = cliEnv();
    for (const [args, extra] of [
      [['show', SESSION, '--debug'], {}],
      [['show', SESSION], { AGENTS_DEBUG: '1' }],
    ] as const) {
      const r = await runBin([...args], { ...bare, ...extra });
      expect(r.code).toBe(2);
      expect(r.probe.sourceMaps).toBe(true);
      expect(r.stderr).toMatch(
        /^ {4}at requireConnection \(.*[\\/]src[\\/]core[\\/]config[\\/]settings\.ts:\d+:\d+\)$/m,
      );
      expect(r.stderr).toMatch(/^ {4}at async main \(.*[\\/]src[\\/]cli[\\/]main\.ts:\d+:\d+\)$/m);
      expect(r.stderr).not.toMatch(/[\\/]dist[\\/]/);
    }
  });
});

// package.json's engines, as npm reads them (">=22.12"): the oldest Node the launcher lets run.
const engines = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { engines: { node: string } }
).engines.node;
const [major, minor] = /^>=(\d+)\.(\d+)$/.exec(engines)!.slice(1).map(Number) as [number, number];
const oldest = `${major}.${minor}.0`;
const tooOld = minor > 0 ? `${major}.${minor - 1}.99` : `${major - 1}.99.99`;
const needs = `error: agents needs Node.js ${major}.${minor} or later, and this is Node.js `;

/** Node's options that make process.versions.node say `version` (the rest of the runtime is this one's). */
const saying = (version: string) => [
  process.execPath,
  '--import',
  `data:text/javascript,Object.defineProperty(process.versions,'node',{value:'${version}'})`,
];

describe('a Node older than package.json allows', () => {
  it(`${tooOld} (just below ${engines}): one line naming the Node needed, exit 1, and nothing of dist/ loaded; ${oldest} runs`, async () => {
    const [old, ok] = await Promise.all([
      runBin(['--version'], file.env, saying(tooOld)),
      runBin(['--version'], file.env, saying(oldest)),
    ]);
    expect({ code: old.code, stdout: old.stdout }).toEqual({ code: 1, stdout: '' });
    expect(old.stderr.startsWith(`${needs}${tooOld}`), old.stderr).toBe(true);
    expect(old.stderr.split('\n')).toHaveLength(2);
    expect(old.probe.files.filter((f) => !f.endsWith(join('bin', 'agents.js')))).toEqual([]);
    expect({ code: ok.code, stderr: ok.stderr }).toEqual({ code: 0, stderr: '' });
  });

  const old = oldNode();
  it.skipIf(old.missing !== undefined)(
    titled('a real Node 20 running bin/agents.js: the same line and exit 1, for any command', old.missing),
    () => {
      // Without the probe: Node 20 has no module.registerHooks.
      for (const args of [['--version'], ['show', 'last']]) {
        const r = spawnSync(old.path!, [BIN, ...args], {
          env: file.env,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        expect(r.status, r.stderr).toBe(1);
        expect(r.stdout).toBe('');
        expect(r.stderr).toMatch(
          /^error: agents needs Node\.js \d+\.\d+ or later, and this is Node\.js 20\.[^\n]*\n$/,
        );
      }
    },
  );
});
