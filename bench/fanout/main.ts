// `npm run bench:fanout` (issue 12): N waiters on one key, each a real `agents create --wait` process (the
// built binary) against the emulator with its rate limit on (100 requests a minute per key), 45 s turns,
// start times spread over the first seconds. Each size runs twice in the same bench: as today's
// uncoordinated processes (AGENTS_SHARED_PACING=0: each paces itself alone and polls on its own schedule)
// and with the budget shared. Prints, per run: responses of 429, requests, p50/p95 lateness of the final
// reply (printed − stored), whether every reply was printed exactly once, and p95 against the floor the
// budget allows, as issue 23 defines it: N waiters sharing 100 a minute can each poll once every N × 0.6 s,
// so a reply waits up to that; the floor is 0.6 × N s. Beside it, p95 against 0.57 × N s (95 % of that gap:
// where a p95 lands when every gap is exactly the share), the floor earlier versions of this bench printed.
// Options: --sizes 8,16,32 --modes alone,shared (or machines, fleet, split, redis) --machines 4 --turn 45
// --spread 20 (seconds), --rounds N, --bin PATH (another build's bin/agents.js), --print json,reply: what the
// waiters print: `--wait --json`, the result a CI job reads (the final message and, read after it, the
// session's pull requests: one more request each, in the minute the replies come), or plain `--wait`, the
// reply alone (its time of storing read from the emulator).
// fleet, split and redis run the N waiters over M machines (--machines, homes of their own): each machine
// taking the whole key (fleet), its static part of it with AGENTS_RATE_LIMIT (split), or all sharing one
// Redis started by the bench with AGENTS_BUDGET_URL (redis).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startEmulator } from '../../src/emulator/index.js';
import type { Message } from '../../src/core/api/types.js';
import type { RunningEmulator } from '../../src/emulator/surface.js';
import { fileLimiter } from '../../src/core/budget/shared.js';
import { startRedis } from '../../test/support/redis.js';

export interface RunOptions {
  /** bin/agents.js of the checkout (built by the npm script). */
  bin: string;
  argv: string[];
}

/**
 * alone: every process paces itself (AGENTS_SHARED_PACING=0); shared: one budget file for all of them;
 * machines: each process a machine of its own (its own state directory, so no file in common), given its
 * share of the key with AGENTS_RATE_LIMIT (100 / N a minute, rounded down).
 */
type Mode = 'alone' | 'shared' | 'machines' | 'fleet' | 'split' | 'redis';

const MODES: readonly Mode[] = ['alone', 'shared', 'machines', 'fleet', 'split', 'redis'];

/** What the waiters print: the CI result (`--wait --json`) or the reply alone (`--wait`). */
type Print = 'json' | 'reply';
const PRINTS: readonly Print[] = ['json', 'reply'];

/** One waiter process, measured. */
interface Waiter {
  code: number | null;
  /** Final replies printed (JSON lines of type final_message with the expected text). */
  printed: number;
  /** Printed − stored (ms); Infinity when it never printed its reply. */
  latenessMs: number;
  stderr: string;
  /** With --timeline: when each request left (epoch ms), from the --debug trace. */
  sent: number[];
  /** With --timeline: how long each of those requests waited for a slot of the budget (ms, 0: under 50). */
  slotWaits: number[];
  /** When the process started and its final was stored (epoch ms). */
  startedAt: number;
  storedAt: number;
}

interface Result {
  n: number;
  mode: Mode;
  print: Print;
  waiters: Waiter[];
  rejected429: number;
  requests: number;
  tookMs: number;
  started: number;
}

/** --timeline: each waiter's requests on one line, and the requests of all in 5 s buckets. */
function timelineOf(r: Result): string[] {
  const t = (ms: number) => ((ms - r.started) / 1000).toFixed(1);
  const lines = [
    `timeline, ${r.n} ${label(r.mode, r.print)} (s from the start; * the final stored; (+s) a wait for a slot of the budget):`,
  ];
  const buckets: number[] = [];
  for (const w of r.waiters) {
    for (const at of w.sent) {
      const b = Math.floor((at - r.started) / 5000);
      buckets[b] = (buckets[b] ?? 0) + 1;
    }
    const sent = w.sent.map((at, i) => {
      const slot = w.slotWaits[i] ?? 0;
      return slot > 0 ? `${t(at)}(+${(slot / 1000).toFixed(1)})` : t(at);
    });
    lines.push(`  start ${t(w.startedAt)} *${t(w.storedAt)}: ${sent.join(' ')}`);
  }
  lines.push(`  requests per 5 s: ${Array.from(buckets, (v) => v ?? 0).join(' ')}`);
  return lines;
}

function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  const e: NodeJS.ProcessEnv = { ...process.env };
  for (const k of Object.keys(e)) if (k.startsWith('AGENTS_') || k === 'CI') delete e[k];
  return { ...e, ...extra };
}

/** One `agents create --wait [--json]` whose turn ends `turnMs` after it is created. */
function waiter(
  bin: string,
  environment: NodeJS.ProcessEnv,
  text: string,
  turnMs: number,
  print: Print,
  em: RunningEmulator,
): Promise<Waiter> {
  return new Promise((resolve, reject) => {
    const message = `[[turn:${turnMs}]] [[reply:${text}]] ${text}`;
    const json = print === 'json' ? ['--json'] : [];
    const child = spawn(process.execPath, [bin, 'create', '-a', 'claude', '--wait', ...json, message], {
      env: environment,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let printedAt = Number.POSITIVE_INFINITY;
    const sent: number[] = [];
    const slotWaits: number[] = [];
    let waited = 0;
    const startedAt = Date.now();
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const whole = print === 'json' ? stdout.includes('\n') : stdout.length >= text.length;
      if (!Number.isFinite(printedAt) && whole) printedAt = Date.now();
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      for (const l of chunk.split('\n')) {
        if (l.startsWith('debug: → ')) {
          sent.push(Date.now());
          slotWaits.push(waited);
          waited = 0;
        }
        const w = /^debug: waited (\d+) ms for a slot/.exec(l);
        if (w) waited = Number(w[1]);
      }
    });
    // A wait that outlives its turn by minutes is broken; its reply counts as never printed.
    const killer = setTimeout(() => child.kill('SIGKILL'), turnMs + 240_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      let finals: Message[];
      if (print === 'json') {
        finals = stdout
          .split('\n')
          .filter((l) => l.trim() !== '')
          .map((l) => JSON.parse(l) as Message)
          .filter((m) => m.type === 'final_message' && m.message === text);
      } else {
        // The reply alone, exactly (piped output gets no newline); when it was stored, the emulator knows.
        const session = /on session ([0-9a-f-]{36})/.exec(stderr)?.[1];
        const final = session
          ? em.messages(session).find((m) => m.type === 'final_message' && m.message === text)
          : undefined;
        finals = final && stdout === text ? [final] : [];
      }
      const stored = finals[0] ? Date.parse(finals[0].created_at) : Number.NaN;
      const latenessMs = finals.length > 0 ? printedAt - stored : Number.POSITIVE_INFINITY;
      resolve({
        code,
        printed: finals.length,
        latenessMs,
        stderr,
        sent,
        slotWaits,
        startedAt,
        storedAt: stored,
      });
    });
  });
}

async function scenario(
  bin: string,
  n: number,
  mode: Mode,
  print: Print,
  turnMs: number,
  spreadMs: number,
  progress: (line: string) => void,
  timeline: boolean,
  fleet: { machines: number; redisUrl?: string },
): Promise<Result> {
  const key = `bench-fanout-${mode}-${print}-${n}`;
  const em = await startEmulator({
    port: 0,
    timeScale: 1,
    rateLimit: { limit: 100, windowMs: 60_000 },
    keys: [{ key, workspace: 'bench' }],
  });
  // One state directory for the run's processes: the shared budget's file lives there.
  const dir = mkdtempSync(join(tmpdir(), 'agents-bench-fanout-'));
  const environment = env({
    AGENTS_BASE_URL: em.url,
    AGENTS_API_KEY: key,
    AGENTS_CONFIG_DIR: dir,
    AGENTS_SHARED_PACING: mode === 'alone' ? '0' : '1',
    ...(timeline ? { AGENTS_DEBUG: '1' } : {}),
  });
  const started = Date.now();
  // fleet, split, redis: M machines, each a home of its own that its waiters share.
  const homes = Array.from({ length: fleet.machines }, () => mkdtempSync(join(dir, 'machine-')));
  try {
    // Stratified: waiter i starts at a random moment of the i-th n-th of the spread.
    const runs = Array.from({ length: n }, async (_, i) => {
      await new Promise((r) => setTimeout(r, (spreadMs * (i + Math.random())) / n));
      const home = homes[i % homes.length]!;
      const own =
        mode === 'machines'
          ? {
              ...environment,
              AGENTS_CONFIG_DIR: mkdtempSync(join(dir, 'machine-')),
              AGENTS_RATE_LIMIT: String(Math.max(1, Math.floor(100 / n))),
            }
          : mode === 'fleet'
            ? { ...environment, AGENTS_CONFIG_DIR: home }
            : mode === 'split'
              ? {
                  ...environment,
                  AGENTS_CONFIG_DIR: home,
                  AGENTS_RATE_LIMIT: String(Math.max(1, Math.floor(100 / fleet.machines))),
                }
              : mode === 'redis'
                ? { ...environment, AGENTS_CONFIG_DIR: home, AGENTS_BUDGET_URL: fleet.redisUrl ?? '' }
                : environment;
      return waiter(bin, own, `bench-${mode}-${n}-${i}`, turnMs, print, em);
    });
    const waiters = await Promise.all(runs);
    const stats = em.stats();
    const tookMs = Date.now() - started;
    progress(`${n} waiters, ${label(mode, print)}: done in ${(tookMs / 1000).toFixed(0)} s`);
    return {
      n,
      mode,
      print,
      waiters,
      rejected429: stats.rejected429,
      requests: stats.requests,
      tookMs,
      started,
    };
  } finally {
    await em.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A row's pacing, and `reply` when the waiters print the reply alone. */
const label = (mode: Mode, print: Print) => (print === 'json' ? mode : `${mode}, reply`);

/** The floor of N waiters' lateness: each may poll once every N × 0.6 s (100 a minute shared). */
const FLOOR_MS_PER_WAITER = 600;

/** The value below which `share` of the values fall (nearest rank); Infinity counts as the slowest. */
function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(0, Math.ceil(share * sorted.length) - 1)] ?? Number.NaN;
}

const secs = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(1)} s` : 'never');

/** What one shared-budget transaction (lock + read + write) costs here, uncontended. */
async function transactionCost(): Promise<{ perTransactionMs: number; perRequestMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'agents-bench-cost-'));
  try {
    const limiter = fileLimiter('http://127.0.0.1:1', 'cost', { limit: 100, windowMs: 20 }, { dir });
    const count = 2000;
    const started = performance.now();
    for (let i = 0; i < count; i += 1) (await limiter.acquire())();
    await new Promise((r) => setTimeout(r, 50));
    const perRequestMs = (performance.now() - started) / count;
    return { perTransactionMs: limiter.cost.totalMs / limiter.cost.transactions, perRequestMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function list(raw: string | undefined, fallback: string): string[] {
  return (raw ?? fallback).split(',').map((s) => s.trim());
}

export async function run(o: RunOptions): Promise<void> {
  const { values } = parseArgs({
    args: o.argv,
    options: {
      sizes: { type: 'string' },
      modes: { type: 'string' },
      turn: { type: 'string' },
      spread: { type: 'string' },
      timeline: { type: 'boolean' },
      rounds: { type: 'string' },
      bin: { type: 'string' },
      machines: { type: 'string' },
      print: { type: 'string' },
    },
    strict: true,
  });
  const machines = Number(values.machines ?? 4);
  if (!Number.isInteger(machines) || machines < 1)
    throw new Error(`--machines: a whole number, not ${values.machines}`);
  const sizes = list(values.sizes, '8,16,32').map(Number);
  const modes = list(values.modes, 'alone,shared') as Mode[];
  if (sizes.some((s) => !Number.isInteger(s) || s < 1))
    throw new Error(`--sizes: whole numbers, not ${values.sizes}`);
  if (modes.some((m) => !MODES.includes(m))) throw new Error(`--modes: ${MODES.join(', ')}`);
  const prints = list(values.print, 'json') as Print[];
  if (prints.some((p) => !PRINTS.includes(p))) throw new Error(`--print: ${PRINTS.join(', ')}`);
  // redis: one real redis-server for the machines of the run (Debian's), no persistence.
  const redis = modes.includes('redis') ? await startRedis() : undefined;
  const turnMs = Number(values.turn ?? 45) * 1000;
  const spreadMs = Number(values.spread ?? 20) * 1000;
  // Rounds pool their waiters: with 8 samples, p95 is the slowest one.
  const rounds = Number(values.rounds ?? 1);
  if (!Number.isInteger(rounds) || rounds < 1)
    throw new Error(`--rounds: a whole number, not ${values.rounds}`);
  // --bin: another build's bin/agents.js (an older commit's), measured the same way.
  const bin = values.bin ?? o.bin;
  const started = Date.now();
  const progress = (line: string) =>
    process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);

  const cost = await transactionCost();
  const results: Result[] = [];
  for (const n of sizes) {
    for (const mode of modes) {
      for (const print of prints) {
        for (let round = 1; round <= rounds; round += 1) {
          progress(
            `${n} waiters, ${label(mode, print)}, round ${round}/${rounds}: running (${turnMs / 1000} s turns, starts over ${spreadMs / 1000} s)`,
          );
          results.push(
            await scenario(bin, n, mode, print, turnMs, spreadMs, progress, values.timeline === true, {
              machines,
              redisUrl: redis?.url,
            }),
          );
        }
      }
    }
  }

  // One row per size and mode, its rounds pooled.
  const pooled: Result[] = [];
  for (const r of results) {
    const same = pooled.find((p) => p.n === r.n && p.mode === r.mode && p.print === r.print);
    if (same === undefined) pooled.push({ ...r, waiters: [...r.waiters] });
    else {
      same.waiters.push(...r.waiters);
      same.rejected429 += r.rejected429;
      same.requests += r.requests;
    }
  }
  const head = [
    'waiters',
    'pacing',
    '429s',
    'requests',
    'p50 late',
    'p95 late',
    'floor',
    'p95/floor',
    'p95/0.57N',
    'printed once',
    'exit 0',
  ];
  const rows = pooled.map((r) => {
    const late = r.waiters.map((w) => w.latenessMs);
    const floorMs = FLOOR_MS_PER_WAITER * r.n;
    const oldFloorMs = 570 * r.n;
    const p95 = percentile(late, 0.95);
    const once = r.waiters.filter((w) => w.printed === 1).length;
    const ok = r.waiters.filter((w) => w.code === 0).length;
    const all = r.waiters.length;
    return [
      String(r.n),
      label(r.mode, r.print),
      String(r.rejected429),
      String(r.requests),
      secs(percentile(late, 0.5)),
      secs(p95),
      secs(floorMs),
      Number.isFinite(p95) ? `${(p95 / floorMs).toFixed(2)}x` : 'never',
      Number.isFinite(p95) ? `${(p95 / oldFloorMs).toFixed(2)}x` : 'never',
      `${once}/${all}`,
      `${ok}/${all}`,
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const out = [
    `bench:fanout, Node ${process.version}: ${turnMs / 1000} s turns, starts spread over ${spreadMs / 1000} s, ` +
      `emulator limit 100 requests a minute per key, ${rounds} round(s) per row (429s and requests summed); took ${((Date.now() - started) / 1000).toFixed(0)} s`,
    `floor: 0.6 × N s, the gap of each of N waiters sharing 100 a minute (issue 23); p95/0.57N: against 95 % of it, as before`,
    `targets (issue 23, redis over 4 machines): 0 responses of 429, every reply printed exactly once, ` +
      `p95 within 0.8x the floor with 32 waiters, within 1.2x with 4`,
    `shared budget file: ${cost.perTransactionMs.toFixed(2)} ms a transaction (lock + read + write), ` +
      `one a request in sequence (its slot and the last one's end): ${cost.perRequestMs.toFixed(2)} ms a request with the in-process window`,
    '',
    line(head),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    'raw lateness (s), in start order:',
    ...results.map(
      (r) =>
        `  ${String(r.n).padStart(2)} ${label(r.mode, r.print).padEnd(13)} ` +
        r.waiters
          .map((w) => (Number.isFinite(w.latenessMs) ? (w.latenessMs / 1000).toFixed(1) : 'never'))
          .join(' '),
    ),
  ];
  const failures = results.flatMap((r) =>
    r.waiters
      .filter((w) => w.code !== 0)
      .slice(0, 2)
      .map(
        (w) =>
          `  ${r.n} ${label(r.mode, r.print)}: exit ${w.code}: ${w.stderr.trim().split('\n').slice(-2).join(' | ')}`,
      ),
  );
  if (failures.length > 0) out.push('', 'some failed waits (at most two per run):', ...failures);
  // A waiter that could not use the shared budget (a Redis that timed out, say) paced itself with its
  // machine's: the first such warning of each run, and how many waiters gave one.
  const fallbacks = results.flatMap((r) => {
    const warned = r.waiters.filter((w) => w.stderr.includes('cannot be used'));
    const first = warned[0]?.stderr.split('\n').find((l) => l.includes('cannot be used'));
    return first === undefined
      ? []
      : [`  ${r.n} ${label(r.mode, r.print)}: ${warned.length} waiter(s), first: ${first}`];
  });
  if (fallbacks.length > 0) out.push('', 'waiters that fell back from the shared budget:', ...fallbacks);
  if (values.timeline) for (const r of results) out.push('', ...timelineOf(r));
  if (modes.some((m) => m === 'fleet' || m === 'split' || m === 'redis')) {
    out.splice(2, 0, `fleet, split, redis: the waiters over ${machines} machines (homes of their own)`);
  }
  await redis?.stop();
  process.stdout.write(`${out.join('\n')}\n`);
}
