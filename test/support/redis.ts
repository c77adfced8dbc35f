// A real redis-server for the tests that share a key's budget across machines: started on a free port with
// no persistence, stopped (or killed, to play a store lost mid-wait) by the test. Where the machine has no
// redis-server those tests skip, naming it; with AGENTS_TEST_REQUIRE_TOOLS=1 (.ci/run) they fail instead.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** Whether redis-server can be started here. */
export const hasRedis = spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;

/** Why the Redis tests do not run here, or undefined when they do (a missing tool fails under CI). */
export function redisSkipReason(): string | undefined {
  if (hasRedis) return undefined;
  if (process.env.AGENTS_TEST_REQUIRE_TOOLS === '1') {
    throw new Error('redis-server is required (AGENTS_TEST_REQUIRE_TOOLS=1) but is not installed');
  }
  return 'redis-server is not installed (Debian: apt-get install redis-server)';
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

/** A running redis-server. */
export interface TestRedis {
  port: number;
  /** `redis://[:password@]127.0.0.1:port`. */
  url: string;
  /** Ends it at once (SIGKILL): a store lost mid-wait. */
  kill(): Promise<void>;
  /** Starts it again on the same port, empty. */
  restart(): Promise<void>;
  /** One command through redis-cli, its output. */
  cli(...args: string[]): string;
  stop(): Promise<void>;
}

async function launch(port: number, password: string | undefined): Promise<ChildProcess> {
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  if (password !== undefined) args.push('--requirepass', password);
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer);
        resolve();
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`redis-server exited (${code}): ${out}`));
    });
  });
  return child;
}

const ended = (child: ChildProcess) =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise<void>((resolve) => child.once('exit', () => resolve()));

/** Starts a redis-server on a free port (with a password when given). */
export async function startRedis(password?: string): Promise<TestRedis> {
  const port = await freePort();
  let child = await launch(port, password);
  const auth = password === undefined ? '' : `:${encodeURIComponent(password)}@`;
  return {
    port,
    url: `redis://${auth}127.0.0.1:${port}`,
    async kill() {
      child.kill('SIGKILL');
      await ended(child);
    },
    async restart() {
      child = await launch(port, password);
    },
    cli(...args) {
      const pass = password === undefined ? [] : ['-a', password, '--no-auth-warning'];
      return spawnSync('redis-cli', ['-p', String(port), ...pass, ...args], { encoding: 'utf8' }).stdout;
    },
    async stop() {
      child.kill('SIGTERM');
      await ended(child);
    },
  };
}
