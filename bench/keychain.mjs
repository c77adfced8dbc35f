// `npm run bench:keychain`: what reading the key from the system's keychain costs `agents show <id> --json`
// (issue 49). Against a real Secret Service (GNOME Keyring on a private D-Bus session bus, as the tests
// start it: Linux with dbus-daemon and gnome-keyring-daemon), interleaved rounds of the same show with the
// key in AGENTS_API_KEY, in the profile's file, and in the keychain; and the keychain's helper alone (the
// child process src/core/config/key-store.ts starts for a read). Medians of wall time. Options: --runs N
// (default 30), --warmup N (default 3).
import { spawn, spawnSync } from 'node:child_process';
import { runBundled } from './bundle.mjs';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'agents.js');
const helper = join(root, 'dist', 'keychain-helper.js');
const option = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const runs = option('--runs', 30);
const warmup = option('--warmup', 3);

const work = mkdtempSync(join(tmpdir(), 'agents-bench-keychain-'));
const children = [];
process.on('exit', () => {
  for (const c of children) c.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

// The bus, and the keyring on it, unlocked: started as the tests start it (test/support/keyring.ts, bundled
// by bundle.mjs since Node cannot import .ts), so that there is one copy of how.
let keyring;
await runBundled('keychain', { keyring: 'test/support/keyring.ts' }, async ({ startKeyring }) => {
  keyring = await startKeyring();
});
if (keyring === undefined) process.exit(1);
process.on('exit', () => keyring.close());
const address = keyring.env.DBUS_SESSION_BUS_ADDRESS;

const emulator = spawn(process.execPath, [bin, 'emulator', '--port', '0', '--rate-limit', '0'], {
  stdio: ['ignore', 'pipe', 'ignore'],
  env: { PATH: process.env.PATH, HOME: work, AGENTS_CONFIG_DIR: work },
});
children.push(emulator);
const baseUrl = await new Promise((resolve) =>
  createInterface({ input: emulator.stdout }).once('line', resolve),
);
const KEY = 'agents-dev-key';
const base = {
  PATH: process.env.PATH,
  HOME: work,
  NO_COLOR: '1',
  AGENTS_SHARED_PACING: '0',
  DBUS_SESSION_BUS_ADDRESS: address,
};

const inKeychain = join(work, 'keychain');
const inFile = join(work, 'file');
for (const [dir, flag] of [
  [inKeychain, '--keychain'],
  [inFile, '--insecure-storage'],
]) {
  const login = spawnSync(process.execPath, [bin, 'login', '--with-key', flag, '--base-url', baseUrl], {
    env: { ...base, AGENTS_CONFIG_DIR: dir },
    input: KEY,
    encoding: 'utf8',
  });
  if (login.status !== 0) throw new Error(`login ${flag}: ${login.stderr}`);
}
const created = spawnSync(process.execPath, [bin, 'create', '-a', 'claude', 'a session to show'], {
  env: { ...base, AGENTS_CONFIG_DIR: inFile },
  encoding: 'utf8',
});
const id = created.stdout.trim();

/** Wall time of one run of `argv` with `env` (and `input` on stdin), in ms. */
function timed(argv, env, input) {
  return new Promise((resolve, reject) => {
    const start = process.hrtime.bigint();
    const child = spawn(argv[0], argv.slice(1), { env, stdio: ['pipe', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c) => (err += c));
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${argv.join(' ')}: ${code} ${err}`));
      else resolve(Number(process.hrtime.bigint() - start) / 1e6);
    });
    child.stdin.end(input ?? '');
  });
}

const cases = {
  'show --json, key in AGENTS_API_KEY': () =>
    timed([process.execPath, bin, 'show', id, '--json'], {
      ...base,
      AGENTS_CONFIG_DIR: inFile,
      AGENTS_BASE_URL: baseUrl,
      AGENTS_API_KEY: KEY,
    }),
  'show --json, key in the config file': () =>
    timed([process.execPath, bin, 'show', id, '--json'], { ...base, AGENTS_CONFIG_DIR: inFile }),
  'show --json, key in the keychain': () =>
    timed([process.execPath, bin, 'show', id, '--json'], { ...base, AGENTS_CONFIG_DIR: inKeychain }),
  "the keychain's helper alone (one read)": () =>
    timed(
      [process.execPath, '--no-warnings', helper],
      { ...base, AGENTS_KEYCHAIN_HELPER: '1' },
      JSON.stringify({ op: 'get', service: 'agents-cli', account: `default@${inKeychain}` }),
    ),
};
const times = Object.fromEntries(Object.keys(cases).map((k) => [k, []]));
for (let round = 0; round < warmup + runs; round++) {
  for (const [name, run] of Object.entries(cases)) {
    const ms = await run();
    if (round >= warmup) times[name].push(ms);
  }
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`Node ${process.version}, ${runs} runs each (interleaved), medians of wall time:`);
for (const [name, xs] of Object.entries(times))
  console.log(`  ${name.padEnd(42)} ${median(xs).toFixed(1)} ms`);
// The emulator, the bus and the keyring hold the event loop open: the exit handler above ends them.
process.exit(0);
