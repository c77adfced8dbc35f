// `npm run bench:poll`: our poller against a naive loop on the emulator, in three scenarios (issue 5).
// Prints one table of figures against targets, then the raw numbers. A missed target is a figure, not a
// failure; only a bench that breaks (an error, a child that dies) makes run() throw.
// Options: --runs N (scenario 1, default 15), --turn-runs N (scenario 2, default 3), --burst N (default
// 10000), --only 1,2,3 (a subset, while working on one).
import { parseArgs } from 'node:util';
import { startEmulator } from '../../src/emulator/index.js';
import { burstScenario, type BurstResult, type BurstRun } from './burst.js';
import { count, formatTable, mb, mib, ms, type Row } from './table.js';
import { median, worst } from './tally.js';
import {
  LONG_TURN_MS,
  longTurnScenario,
  replyScenario,
  waitKeys,
  type PairedWaits,
  type WaitSample,
} from './waits.js';

/** How run() is started by bench/poll.mjs. */
export interface RunOptions {
  /** The bundled burst child. */
  childScript: string;
  argv: string[];
}

function positive(raw: string | undefined, name: string, fallback: number): number {
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw new Error(`--${name} needs a positive integer, not ${raw}`);
  return n;
}

const missed = (samples: WaitSample[]) => samples.filter((s) => !Number.isFinite(s.latenessMs)).length;
const dups = (samples: WaitSample[]) => samples.reduce((n, s) => n + s.duplicates, 0);

/** " (3/15 missed, 2 duplicates)" or "". */
function caveats(samples: WaitSample[]): string {
  const notes: string[] = [];
  const m = missed(samples);
  if (m > 0) notes.push(`${m}/${samples.length} missed`);
  const d = dups(samples);
  if (d > 0) notes.push(`${d} duplicates`);
  return notes.length > 0 ? ` (${notes.join(', ')})` : '';
}

function replyRows(w: PairedWaits): Row[] {
  const scenario = `1 reply 0.5 s after create: median lateness, ${w.ours.length} runs`;
  return (['ours', 'naive'] as const).map((p) => {
    const m = median(w[p].map((s) => s.latenessMs));
    return { scenario, poller: p, figure: `${ms(m)}${caveats(w[p])}`, target: '≤ 500 ms', met: m <= 500 };
  });
}

function longTurnRows(w: PairedWaits): Row[] {
  const n = w.ours.length;
  const rows: Row[] = [];
  for (const p of ['ours', 'naive'] as const) {
    const req = w[p].map((s) => s.requests);
    const clean = missed(w[p]) === 0 && dups(w[p]) === 0;
    rows.push({
      scenario: `2 ${LONG_TURN_MS / 1000} s turn: requests to final, worst of ${n}`,
      poller: p,
      figure: `${worst(req)} (median ${median(req)})${caveats(w[p])}`,
      target: '≤ 40',
      met: clean && worst(req) <= 40,
    });
  }
  for (const p of ['ours', 'naive'] as const) {
    const late = w[p].map((s) => s.latenessMs);
    rows.push({
      scenario: `2 ${LONG_TURN_MS / 1000} s turn: lateness, worst of ${n}`,
      poller: p,
      figure: `${ms(worst(late))} (median ${ms(median(late))})${caveats(w[p])}`,
      target: '≤ 3 s',
      met: worst(late) <= 3000,
    });
  }
  return rows;
}

function burstRows(b: BurstResult): Row[] {
  const total = b.size + 1;
  // "Near size / 100": one page of 100 per request, with 10 % to spare for the polls around the burst.
  const budget = Math.ceil((total / 100) * 1.1);
  const label = `3 burst of ${count(b.size)} + final`;
  const rows: Row[] = [];
  const complete = (r: BurstRun) => r.report.sawFinal && r.misses === 0;
  for (const p of ['ours', 'naive'] as const) {
    const r = b[p];
    const note = complete(r) ? '' : ` (missed ${count(r.misses)} of ${count(total)})`;
    rows.push({
      scenario: `${label}: requests`,
      poller: p,
      figure: `${r.report.requests}${note}`,
      target: `≈ ${Math.round(total / 100)} (≤ ${budget})`,
      met: complete(r) && r.report.requests <= budget,
    });
  }
  // The target is read as 100 MB of 10^6 bytes, the stricter reading; the figure also shows MiB.
  const rssRow = (poller: string, kib: number, note: string, target: boolean): Row => ({
    scenario: `${label}: peak RSS`,
    poller,
    figure: `${mb(kib)} (${mib(kib)})${note}`,
    target: target ? '< 100 MB' : '-',
    met: target ? kib * 1024 < 100e6 : undefined,
  });
  for (const p of ['ours', 'naive'] as const) {
    const kib = b[p].report.maxRssKb;
    const over = ((kib - b.oneRequestRssKb) * 1024) / 1e6;
    rows.push(rssRow(p, kib, `, ${over >= 0 ? '+' : ''}${over.toFixed(1)} MB over one request`, true));
  }
  rows.push(rssRow('baseline', b.baselineRssKb, ': start + imports', false));
  rows.push(rssRow('1 request', b.oneRequestRssKb, ': + one list request', false));
  for (const p of ['ours', 'naive'] as const) {
    const r = b[p];
    rows.push({
      scenario: `${label}: duplicates / misses`,
      poller: p,
      figure: `${count(r.duplicates)} / ${count(r.misses)}`,
      target: '0 / 0',
      met: r.duplicates === 0 && r.misses === 0 && r.foreign === 0,
    });
  }
  return rows;
}

const list = (values: number[]) =>
  values.map((v) => (Number.isFinite(v) ? Math.round(v) : 'never')).join(' ');

function rawWaits(title: string, w: PairedWaits): string[] {
  const out = [title];
  for (const p of ['ours', 'naive'] as const) {
    out.push(`  ${p.padEnd(5)} lateness ms: ${list(w[p].map((s) => s.latenessMs))}`);
    out.push(`  ${p.padEnd(5)} requests:    ${list(w[p].map((s) => s.requests))}`);
    out.push(`  ${p.padEnd(5)} duplicates:  ${dups(w[p])}, missed: ${missed(w[p])}`);
  }
  return out;
}

function rawBurst(b: BurstResult): string[] {
  const out = [`scenario 3 (burst of ${b.size} messages + final, ts over 4 seconds, stored at once):`];
  for (const p of ['ours', 'naive'] as const) {
    const r = b[p];
    out.push(
      `  ${p.padEnd(5)} requests ${r.report.requests} (client ${r.report.clientRequests}), printed ${r.yields}, ` +
        `duplicates ${r.duplicates}, misses ${r.misses}, foreign ${r.foreign}, final ${r.report.sawFinal ? 'seen' : 'never seen'}, ` +
        `burst to final ${ms(r.followMs)}, peak RSS ${r.report.maxRssKb} KiB`,
    );
  }
  out.push(
    `  baseline peak RSS ${b.baselineRssKb} KiB (start + imports), ${b.oneRequestRssKb} KiB (+ one request)`,
  );
  return out;
}

/** Which scenarios to run: `--only 1,3` for a quicker look while working on one of them. */
function scenarios(raw: string | undefined): Set<number> {
  if (raw === undefined) return new Set([1, 2, 3]);
  const picked = raw.split(',').map((v) => Number(v.trim()));
  if (picked.some((n) => ![1, 2, 3].includes(n))) throw new Error(`--only takes 1, 2 and 3, not ${raw}`);
  return new Set(picked);
}

const idle: Promise<undefined> = Promise.resolve(undefined);

export async function run(o: RunOptions): Promise<void> {
  const { values } = parseArgs({
    args: o.argv,
    options: {
      runs: { type: 'string' },
      'turn-runs': { type: 'string' },
      burst: { type: 'string' },
      only: { type: 'string' },
    },
    strict: true,
  });
  const runs = positive(values.runs, 'runs', 15);
  const turnRuns = positive(values['turn-runs'], 'turn-runs', 3);
  const burstSize = positive(values.burst, 'burst', 10_000);
  const only = scenarios(values.only);
  const started = Date.now();
  const progress = (line: string) =>
    process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s] ${line}\n`);

  // Scenarios 1 and 2 share an emulator and run at once (scenario 2 mostly sleeps); every wait has its key.
  const keys = waitKeys(turnRuns).map((key) => ({ key, workspace: 'bench' }));
  const em = await startEmulator({ port: 0, rateLimit: false, timeScale: 1, keys });
  let reply: PairedWaits | undefined;
  let longTurn: PairedWaits | undefined;
  try {
    if (only.has(2)) progress(`scenario 2 running (about ${LONG_TURN_MS / 1000 + 8} s at most)`);
    [reply, longTurn] = await Promise.all([
      only.has(1) ? replyScenario(em, runs, progress) : idle,
      only.has(2) ? longTurnScenario(em, turnRuns, progress) : idle,
    ]);
  } finally {
    await em.close();
  }
  let burst: BurstResult | undefined;
  if (only.has(3)) {
    progress('scenario 3 running (our follower may wait out a pacing minute)');
    burst = await burstScenario(o.childScript, burstSize, progress);
  }

  const rows: Row[] = [];
  const raw: string[] = [];
  if (reply) {
    rows.push(...replyRows(reply));
    raw.push(...rawWaits(`scenario 1 (${runs} runs, reply at 0.5 s):`, reply));
  }
  if (longTurn) {
    rows.push(...longTurnRows(longTurn));
    raw.push(...rawWaits(`scenario 2 (${turnRuns} runs at once, ${LONG_TURN_MS / 1000} s turn):`, longTurn));
  }
  if (burst) {
    rows.push(...burstRows(burst));
    raw.push(...rawBurst(burst));
  }
  const took = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`poll benchmark: our poller vs a naive 1 s loop, node ${process.version}, took ${took} s\n`);
  console.log(formatTable(rows));
  console.log(`\nraw numbers\n${raw.join('\n')}`);
}
