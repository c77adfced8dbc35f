// A real Redis for the tests that share a key's budget across machines: redis-server or valkey-server (the
// client must work against both), started on a free port with no persistence, stopped (or killed, to play
// a store lost mid-wait) by the test. Where the machine lacks one of them the tests on it skip, naming it;
// with AGENTS_TEST_REQUIRE_TOOLS=1 (.ci/run) they fail instead.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { missing } from './tools.js';

/** A server binary the Redis tests run against, and its command-line client. */
export interface RedisServerKind {
  /** `redis-server`, `valkey-server`. */
  server: string;
  cli: string;
}

export const REDIS_SERVER: RedisServerKind = {
  server: 'redis-server',
  cli: 'redis-cli',
};

export const VALKEY_SERVER: RedisServerKind = {
  server: 'valkey-server',
  cli: 'valkey-cli',
};

/** Every server the Redis tests run against. */
export const REDIS_SERVERS: readonly RedisServerKind[] = [REDIS_SERVER, VALKEY_SERVER];

/** Why the tests on `kind` do not run here, or undefined when they do (a missing server fails under CI). */
export function redisSkipReason(kind: RedisServerKind = REDIS_SERVER): string | undefined {
  return missing(kind.server as 'redis-server' | 'valkey-server');
}

/** A port nobody listens on now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** A running redis-server or valkey-server. */
export interface TestRedis {
  /** Which server it is. */
  kind: RedisServerKind;
  port: number;
  /** `redis://[:password@]127.0.0.1:port`. */
  url: string;
  /** Ends it at once (SIGKILL): a store lost mid-wait. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  /** One command through the server's own command-line client, its output. */
  cli(...args: string[]): string;
  stop(): Promise<void>;
}

async function launch(
  kind: RedisServerKind,
  port: number,
  password: string | undefined,
): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  if (password !== undefined) args.push('--requirepass', password);
  const child = spawn(kind.server, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${kind.server} did not start: ${out}`)), 30_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      // Both say so (Valkey kept Redis's log lines).
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${kind.server} exited (${code}): ${out}`));
    });
  });
  return child;
}

const ended = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

/** Starts `kind` (redis-server unless told) on a free port, with a password when given. */
export async function startRedis(o: { password?: string; kind?: RedisServerKind } = {}): Promise<TestRedis> {
  const { password, kind = REDIS_SERVER } = o;
  const port = await freePort();
  let child = await launch(kind, port, password);
  const auth = password === undefined ? '' : `:${encodeURIComponent(password)}@`;
  return {
    kind,
    port,
    url: `redis://${auth}127.0.0.1:${port}`,
    async kill() {
      child.kill('SIGKILL');
      await ended(child);
    },
    async restart() {
      child = await launch(kind, port, password);
    },
    cli(...args) {
      const pass = password === undefined ? [] : ['-a', password, '--no-auth-warning'];
      return spawnSync(kind.cli, ['-p', String(port), ...pass, ...args], { encoding: 'utf8' }).stdout;
    },
    async stop() {
      child.kill('SIGTERM');
      await ended(child);
    },
  };
}
