// A real Secret Service for the keychain's tests (src/core/config/key-store.ts): a private D-Bus session bus and
// GNOME Keyring's daemon on it, unlocked, with its files in a temporary home. What a test passes to a run
// (io.env, or a binary's env) is `env`: the bus's address, and AGENTS_KEYCHAIN on (test/support/setup.ts
// turns it off for every other test). Also a bus that never answers, for the store's time bound.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { missing } from './tools.js';

/** Why the keychain's tests cannot run here, or undefined. */
export const keyringMissing = (): string | undefined => missing('dbus-daemon', 'gnome-keyring-daemon');

export interface Keyring {
  /** What a run needs to reach this keyring. */
  env: Record<string, string>;
  /** The entries of service `agents-cli` as secret-tool would list them: account → secret. */
  entries(): Map<string, string>;
  /** Writes `secret` under `account` as another program could (a garbage entry). */
  put(account: string, secret: string): void;
  close(): void;
}

/** Runs @napi-rs/keyring in a child on the bus (as the CLI's helper does), to look without the CLI. */
function probe(env: Record<string, string>, code: string): string {
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    env: { ...process.env, ...env },
    encoding: 'utf8',
    cwd: process.cwd(),
  });
  if (run.status !== 0) throw new Error(`keyring probe failed: ${run.stderr}`);
  return run.stdout;
}

/**
 * Starts the bus and the keyring; close() stops both and removes their files. `locked`: the daemon is not
 * unlocked and has no collection, so that every write is refused (a locked keyring, as after a login
 * without one).
 */
export async function startKeyring(o: { locked?: boolean } = {}): Promise<Keyring> {
  const home = mkdtempSync(join(tmpdir(), 'agents-keyring-'));
  const bus = spawn('dbus-daemon', ['--session', '--nofork', '--print-address=1'], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const address = await new Promise<string>((resolve, reject) => {
    let out = '';
    bus.stdout.setEncoding('utf8');
    bus.stdout.on('data', (c: string) => {
      out += c;
      if (out.includes('\n')) resolve(out.slice(0, out.indexOf('\n')));
    });
    bus.on('exit', () => reject(new Error('dbus-daemon ended before it gave its address')));
  });
  const env = {
    DBUS_SESSION_BUS_ADDRESS: address,
    AGENTS_KEYCHAIN: '1',
  };
  const daemonEnv = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    XDG_DATA_HOME: join(home, 'data'),
    XDG_RUNTIME_DIR: home,
    DBUS_SESSION_BUS_ADDRESS: address,
  };
  const keyring: ChildProcess = spawn(
    'gnome-keyring-daemon',
    ['--foreground', ...(o.locked ? [] : ['--unlock']), '--components=secrets'],
    { env: daemonEnv, stdio: ['pipe', 'ignore', 'ignore'] },
  );
  keyring.stdin?.end(o.locked ? '' : 'test-password');
  // Ready once it owns the Secret Service's name on the bus.
  const deadline = Date.now() + 20_000;
  for (;;) {
    const names = spawnSync(
      'dbus-send',
      [
        '--session',
        '--print-reply',
        '--dest=org.freedesktop.DBus',
        '/org/freedesktop/DBus',
        'org.freedesktop.DBus.ListNames',
      ],
      { env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: address }, encoding: 'utf8' },
    );
    if (names.stdout.includes('org.freedesktop.secrets')) break;
    if (Date.now() > deadline) throw new Error('gnome-keyring-daemon did not take the Secret Service name');
    await new Promise((r) => setTimeout(r, 50));
  }
  const lib = JSON.stringify('@napi-rs/keyring');
  return {
    env,
    entries() {
      const out = probe(
        env,
        `const { findCredentials } = await import(${lib}); process.stdout.write(JSON.stringify(findCredentials('agents-cli')));`,
      );
      return new Map(
        (JSON.parse(out) as { account: string; password: string }[]).map((c) => [c.account, c.password]),
      );
    },
    put(account, secret) {
      probe(
        env,
        `const { Entry } = await import(${lib}); new Entry('agents-cli', ${JSON.stringify(account)}, { linux: { store: 'secret-service' } }).setPassword(${JSON.stringify(secret)});`,
      );
    },
    close() {
      keyring.kill('SIGKILL');
      bus.kill('SIGKILL');
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** A D-Bus address whose socket takes connections and never says a word: a store that hangs. */
export async function silentBus(): Promise<{ env: Record<string, string>; close(): Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'agents-silent-bus-'));
  const path = join(dir, 'bus');
  const held: Socket[] = [];
  const server: Server = createServer((s) => {
    held.push(s);
    s.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return {
    env: { DBUS_SESSION_BUS_ADDRESS: `unix:path=${path}`, AGENTS_KEYCHAIN: '1' },
    async close() {
      for (const s of held) s.destroy();
      await new Promise((r) => server.close(r));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
