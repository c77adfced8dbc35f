// `npm run bench:sdk`: the library (dist/index.js) beside the CLI, against the emulator (`agents emulator`,
// 100 requests a minute per key, as the service): N sessions (default 100) of T-second turns created and
// awaited from one process with `agents.create` + `agents.wait`, beside the CLI's `agents wait` on N
// such sessions (created by the bench with the same key and budget); requests per session (the
// waits' alone: total less the N creates), p95 lateness of a reply (when the program had it, after the
// turn was due: its create's answer plus the turn's length), peak RSS with the N waits in flight; and the library's import time beside `node -e 0`.
// Options: --sessions N (100), --turn S (30), --runs N (20, for import time).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';
import { runBundled } from './bundle.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const lib = join(root, 'dist', 'index.js');
if (!existsSync(lib)) {
  console.error('dist/index.js is missing: run `npm run bench:sdk` (it builds first) or `npm run build`');
  process.exit(1);
}
const option = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const N = option('--sessions', 100);
const TURN_S = option('--turn', 30);
const RUNS = option('--runs', 20);
const { Agents } = await import(lib);
let startEmulator;

/** An emulator in this process (its stats count what each mode sent), one key. */
async function emulator() {
  const em = await startEmulator({
    port: 0,
    keys: [{ key: 'waiter', workspace: 'dev' }],
    rateLimit: { limit: 100, windowMs: 60_000 },
  });
  return { url: em.url, stats: () => em.stats(), stop: () => em.close() };
}

const p95 = (xs) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))];
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const message = `[[turn:${TURN_S * 1000}]] a task`;
const budgetDir = () => join(mkdtempSync(join(tmpdir(), 'agents-bench-sdk-')), 'pacing');

/** The library: N creates and N waits in one process; lateness per reply, peak RSS, requests. */
async function library(url) {
  const agents = new Agents({ apiKey: 'waiter', baseUrl: url, budget: { dir: budgetDir() } });
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 100);
  const late = [];
  const turns = await Promise.all(
    Array.from({ length: N }, () => agents.create({ agent: 'claude', message })),
  );
  await Promise.all(
    turns.map(async (t) => {
      const reply = await agents.wait(t);
      late.push(Date.now() - Date.parse(reply.message.created_at));
    }),
  );
  clearInterval(sampler);
  return { late, peakMb: peak / 2 ** 20 };
}

/**
 * The CLI: N sessions made by this process with the same key, on the CLI's own budget file (the state
 * directory of the `agents wait` run), then one `agents wait` of them all: the same requests, the same budget.
 */
async function cli(url) {
  const config = mkdtempSync(join(tmpdir(), 'agents-bench-sdk-cli-'));
  const maker = new Agents({ apiKey: 'waiter', baseUrl: url, budget: { dir: join(config, 'pacing') } });
  const due = new Map();
  const turns = await Promise.all(
    Array.from({ length: N }, async () => {
      const t = await maker.create({ agent: 'claude', message });
      due.set(t.sessionId, Date.now() + TURN_S * 1000);
      return t;
    }),
  );
  const env = { ...process.env, AGENTS_BASE_URL: url, AGENTS_API_KEY: 'waiter' };
  env.AGENTS_CONFIG_DIR = config;
  const late = [];
  await new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [join(root, 'bin', 'agents.js'), 'wait', ...turns.map((t) => `${t.sessionId}/${t.threadId}`), '--json'],
      { env, stdio: ['ignore', 'pipe', 'ignore'] },
    );
    let buffered = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      buffered += chunk;
      let nl;
      while ((nl = buffered.indexOf('\n')) !== -1) {
        const line = JSON.parse(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
        late.push(Date.now() - due.get(line.session));
      }
    });
    child.on('error', reject);
    child.on('close', resolve);
  });
  return { late };
}

/** ms from spawn to exit of `node args`, the median of RUNS. */
async function startup(args) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await new Promise((resolve) => spawn(process.execPath, args, { stdio: 'ignore' }).on('close', resolve));
    times.push(performance.now() - t0);
  }
  return median(times);
}

await runBundled('sdk', { main: 'bench/sdk/main.ts' }, async (bundled) => {
  ({ startEmulator } = bundled);
  const bare = await startup(['-e', '0']);
  const imported = await startup(['--input-type=module', '-e', `await import(${JSON.stringify(lib)})`]);
  console.log(
    `import: ${imported.toFixed(1)} ms vs node -e 0 ${bare.toFixed(1)} ms (+${(imported - bare).toFixed(1)} ms, ${(imported / bare).toFixed(2)}x)`,
  );

  for (const [name, mode] of [
    ['library', library],
    ['agents wait', cli],
  ]) {
    const em = await emulator();
    try {
      const { late, peakMb } = await mode(em.url);
      const s = em.stats();
      const req = ` requests/session ${((s.requests - N) / N).toFixed(1)} (the waits'), 429s ${s.rejected429}`;
      const mem = peakMb ? `, peak RSS ${peakMb.toFixed(0)} MB` : '';
      console.log(
        `${name}: ${late.length} of ${N} replies, lateness p50 ${(median(late) / 1000).toFixed(1)} s p95 ${(p95(late) / 1000).toFixed(1)} s,${req}${mem}`,
      );
    } finally {
      await em.stop();
    }
  }
});
