// The one-file executable (npm run build:binary): every command runs from it on a PATH with no node, the
// emulator and the MCP server included, as they do from the npm install; and it loads only the files of
// dist/ the npm install loads for the same command (the lazy loading that keeps --help light survives).
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BINARY, binaryMissing } from '../support/binary.js';
import { runEveryCommand } from '../support/every-command.js';
import { fileSession } from '../support/file-session.js';
import { BIN, ROOT } from '../support/run-cli.js';
import { titled } from '../support/tools.js';
import { keyringMissing, startKeyring } from '../support/keyring.js';
import { KEY } from '../support/key.js';
import { runCli } from '../support/run-cli.js';
import { cleanEnv, stored } from '../support/config.js';

const missing = binaryMissing();
const scratch = mkdtempSync(join(tmpdir(), 'agents-binary-'));
const dist = join(BIN, '..', '..', 'dist');

// Preloaded (NODE_OPTIONS, which the executable honours as node does): writes to LOADED_OUT, as the process
// exits, the files of dist/ it loaded. From the executable, the assets its main script asks node:sea for;
// from the npm install, the ES modules Node's loader loads from dist/.
const PROBE = join(scratch, 'probe.cjs');
writeFileSync(
  PROBE,
  `const files = [];
if (require('node:sea').isSea()) {
  const sea = require('node:sea');
  const getAsset = sea.getAsset;
  sea.getAsset = (key, encoding) => (files.push(key), getAsset(key, encoding));
} else {
  require('node:module').registerHooks({
    load(url, context, next) {
      if (url.startsWith('file:')) files.push(require('node:url').fileURLToPath(url));
      return next(url, context);
    },
  });
}
process.on('exit', () => require('node:fs').writeFileSync(process.env.LOADED_OUT, JSON.stringify(files)));
`,
);

/**
 * The files of dist/ one run of `command` loads, by their path inside it without esbuild's content hash
 * (chunks/show-HASH.js is chunks/show.js): the executable may hold an earlier build of the same program
 * than this test run's, and what matters is which of its files a command loads.
 */
function loaded(command: [string, ...string[]], env: NodeJS.ProcessEnv): Promise<string[]> {
  const out = join(mkdtempSync(join(scratch, 'loaded-')), 'loaded.json');
  const [program, ...args] = command;
  return new Promise((resolve, reject) => {
    const child = spawn(program, args, {
      env: { ...env, NODE_OPTIONS: `--require ${PROBE}`, LOADED_OUT: out },
      stdio: 'ignore',
    });
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${command.join(' ')} exited ${code}`));
      const files = JSON.parse(readFileSync(out, 'utf8')) as string[];
      resolve(
        files
          .map((f) => (f.startsWith('/') || /^[A-Z]:/.test(f) ? relative(dist, f).split('\\').join('/') : f))
          .filter((f) => !f.startsWith('..'))
          .map((f) => f.replace(/-[A-Z0-9]{8}\.js$/, '.js'))
          .sort(),
      );
    });
  });
}

const file = fileSession();
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe.skipIf(missing !== undefined)(titled('the one-file executable', missing), () => {
  it('runs every command with no node on the PATH', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    // An empty directory is the whole PATH: nothing the executable could start a node from.
    const empty = mkdtempSync(join(scratch, 'no-node-'));
    await runEveryCommand([BINARY], version, { PATH: empty });
  });

  it('loads the files of dist/ the npm install loads, for --help and for show (startup.test.ts says which)', async () => {
    for (const args of [['--help'], ['show', file.sessionId, '--json']]) {
      const [fromBinary, fromPackage] = await Promise.all([
        loaded([BINARY, ...args], file.env),
        loaded([process.execPath, BIN, ...args], file.env),
      ]);
      expect(fromBinary, args.join(' ')).toEqual(fromPackage);
    }
  });
});

const noKeyring = missing ?? keyringMissing();
describe.skipIf(noKeyring !== undefined)(
  titled("the one-file executable and the system's keychain", noKeyring),
  () => {
    it('logs in with the key in the keychain (the addon it carries, written to the cache once) and reads it back', async () => {
      const keyring = await startKeyring();
      try {
        const dir = mkdtempSync(join(scratch, 'keychain-'));
        // No node on the PATH: the helper is the executable itself.
        const env = cleanEnv(dir, {
          ...keyring.env,
          PATH: mkdtempSync(join(scratch, 'no-node-')),
          XDG_CACHE_HOME: join(dir, 'cache'),
        });
        const login = await runCli(['login', '--with-key', '--base-url', file.em.url], {
          command: [BINARY],
          env,
          input: KEY,
        });
        expect(login.code, login.stderr).toBe(0);
        expect(login.stderr).toContain('the key is in the system keychain');
        expect(await stored(dir)).toMatchObject({ 'base-url': file.em.url, 'key-store': 'keychain' });
        expect(await stored(dir)).not.toHaveProperty('api-key');
        expect(keyring.entries().get(`default@${dir}`)).toBe(KEY);
        // The addon it carries, written privately to the cache, named by its hash.
        expect(readdirSync(join(dir, 'cache', 'agents'))).toEqual([
          expect.stringMatching(/^keyring-[0-9a-f]{16}\.node$/),
        ]);
        const show = await runCli(['show', file.sessionId, '--json'], {
          command: [BINARY],
          env,
          closeStdin: true,
        });
        expect(show.code, show.stderr).toBe(0);
        expect((JSON.parse(show.stdout) as { session: { id: string } }).session.id).toBe(file.sessionId);
        for (const r of [login, show]) expect(r.stdout + r.stderr).not.toContain(KEY);
      } finally {
        keyring.close();
      }
    });
  },
);
