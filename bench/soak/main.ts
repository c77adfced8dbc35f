// The soak: for --minutes, --workers loops of `create --wait --timeout` then `send --wait --timeout`, and a
// tail --until-final (no --timeout) per three workers, all the built CLI as processes on one machine's budget
// (one config directory), against the emulator failing --get-faults of the GETs, cutting --post-cuts of the
// POSTs after committing them, and going away for --away seconds every --restart-every (its listener closed,
// then listening again on the same port). What it counts must all be 0 but the turns.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import type { FaultMode } from '../../src/emulator/surface.js';

const GET_FAULTS: FaultMode[] = ['502', '503', '504', 'html-502', 'reset', 'truncate'];

interface Options {
  minutes: number;
  workers: number;
  getFaults: number;
  postCuts: number;
  restartEveryS: number;
  awayS: [number, number];
}

function options(argv: string[]): Options {
  const { values } = parseArgs({
    args: argv,
    options: {
      minutes: { type: 'string', default: '1' },
      workers: { type: 'string', default: '6' },
      'get-faults': { type: 'string', default: '0.1' },
      'post-cuts': { type: 'string', default: '0.05' },
      'restart-every': { type: 'string', default: '20' },
      away: { type: 'string', default: '2-6' },
    },
  });
  const [low, high] = values.away.split('-').map(Number);
  const o: Options = {
    minutes: Number(values.minutes),
    workers: Number(values.workers),
    getFaults: Number(values['get-faults']),
    postCuts: Number(values['post-cuts']),
    restartEveryS: Number(values['restart-every']),
    awayS: [low ?? 2, high ?? low ?? 6],
  };
  const bad = Object.entries(o).find(([, v]) => (Array.isArray(v) ? v : [v]).some((n) => !(n >= 0)));
  if (bad) throw new Error(`soak: --${bad[0]} must be a number >= 0`);
  return o;
}

/** One run of the CLI: its exit code (null: killed as hung), stdout and stderr. */
interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A run longer than this is a hang (every turn has --timeout 3m; a tail rides out outages of a minute). */
const HANG_MS = 5 * 60_000;

function agents(bin: string, env: NodeJS.ProcessEnv, args: string[]): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), HANG_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** What the soak counts. */
const tally = {
  turns: 0,
  right: 0,
  /** A POST cut after it was committed, reported as such (exit 1, "may have been created"): right too. */
  unknownOutcome: 0,
  wrong: [] as string[],
  hangs: 0,
  tails: 0,
  tailsExact: 0,
  lost: 0,
  duplicated: 0,
};

const unknown = (r: Ran) => r.code === 1 && /may have been created|was created, but/.test(r.stderr);

/** Judges one turn: the reply printed and exit 0, or an honest "outcome unknown". */
function judge(what: string, r: Ran, reply: string): boolean {
  tally.turns += 1;
  if (r.code === null) tally.hangs += 1;
  if (r.code === 0 && r.stdout === reply) {
    tally.right += 1;
    return true;
  }
  if (unknown(r)) tally.unknownOutcome += 1;
  else
    tally.wrong.push(`${what}: exit ${r.code}, ${JSON.stringify(r.stderr.trim().split('\n').at(-1) ?? '')}`);
  return false;
}

/** Every session the soak's creates made (for the count of repeated POSTs). */
const sessions = new Set<string>();

async function worker(n: number, bin: string, env: NodeJS.ProcessEnv, until: number, em: RunningEmulator) {
  for (let i = 0; Date.now() < until; i++) {
    const token = `w${n}t${i}`;
    // A third of the workers' first turns are followed by a tail instead of create's own wait.
    const tailed = n % 3 === 0;
    const message = `[[steps:3]] [[gap:500]] [[reply:${token}-a]] ${token} first`;
    const create = await agents(bin, env, [
      ...['create', '-a', 'claude', '--json'],
      // Without --wait a create has no --timeout: its POST rides out an outage as rule 2 says.
      ...(tailed ? [] : ['--wait', '--timeout', '3m']),
      message,
    ]);
    // --json: the Session (chat_id, thread_id), or with --wait the final Message (chat_id: its session).
    let out: { id?: string; thread_id?: string; chat_id?: string; message?: string } = {};
    try {
      out = JSON.parse(create.stdout) as typeof out;
    } catch {
      // Not JSON: judged below as a wrong turn (or an honest "outcome unknown").
    }
    const id = tailed ? out.id : out.chat_id;
    if (id !== undefined) sessions.add(id);
    // A tailed create that made no session (its POST cut after the commit, say) is judged by its own run.
    const thread = out.thread_id;
    const tailing = tailed && id !== undefined && thread !== undefined;
    const got = tailing ? await tail(bin, env, id, thread, em) : create;
    const reply = tailing ? got.stdout : (out.message ?? create.stdout);
    if (
      !judge(`${tailed ? 'tailed create' : 'create'} ${token}`, { ...got, stdout: reply }, `${token}-a`) ||
      !id
    )
      continue;
    const send = await agents(bin, env, [
      'send',
      id,
      '--wait',
      '--timeout',
      '3m',
      `[[think:1500]] [[reply:${token}-b]] ${token} next`,
    ]);
    judge(`send ${token}`, send, `${token}-b`);
  }
}

/**
 * The turn followed by `tail --until-final` (no --timeout: a tail rides out an outage of a minute by
 * itself), its messages against the emulator's; resolves with the run, its stdout the last message's text.
 */
async function tail(
  bin: string,
  env: NodeJS.ProcessEnv,
  id: string,
  thread: string,
  em: RunningEmulator,
): Promise<Ran> {
  const r = await agents(bin, env, [
    'tail',
    id,
    '--thread',
    thread,
    '--until-final',
    '--json',
    '-n',
    '10000',
  ]);
  tally.tails += 1;
  if (r.code !== 0) return r;
  const got = r.stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { id: string; message: string });
  const want = em
    .messages(id)
    .filter((m) => m.role === 'assistant' && m.type !== 'tool_call' && m.chat_thread_id === thread)
    .map((m) => m.id);
  const seen = new Set(got.map((m) => m.id));
  const lost = want.filter((w) => !seen.has(w)).length;
  const twice = got.length - seen.size;
  tally.lost += lost;
  tally.duplicated += twice;
  if (lost === 0 && twice === 0) tally.tailsExact += 1;
  return { ...r, stdout: got.at(-1)?.message ?? '' };
}

/** Takes the listener away for --away seconds every --restart-every, until `until`. */
async function restarts(em: RunningEmulator, o: Options, until: number, log: string[]) {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  if (o.restartEveryS === 0) return;
  while (Date.now() + o.restartEveryS * 1000 < until) {
    await sleep(o.restartEveryS * 1000);
    const away = (o.awayS[0] + Math.random() * (o.awayS[1] - o.awayS[0])) * 1000;
    await em.stopListening();
    await sleep(away);
    await em.listenAgain();
    log.push(`${(away / 1000).toFixed(1)} s`);
  }
}

/** Stored user messages whose text was posted more than once: a POST the service carried out twice. */
function repeatedPosts(em: RunningEmulator, ids: Iterable<string>): number {
  let repeated = 0;
  for (const id of ids) {
    const counts = new Map<string, number>();
    for (const m of em.messages(id))
      if (m.role === 'user') counts.set(m.message, (counts.get(m.message) ?? 0) + 1);
    for (const c of counts.values()) repeated += c - 1;
  }
  return repeated;
}

export async function run({ bin, argv }: { bin: string; argv: string[] }): Promise<void> {
  const o = options(argv);
  // The service's own limit: the machine's budget must keep every process under it (no 429).
  const em = await startEmulator({ port: 0, rateLimit: { limit: 100, windowMs: 60_000 } });
  const config = mkdtempSync(join(tmpdir(), 'agents-soak-'));
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    AGENTS_BASE_URL: em.url,
    AGENTS_API_KEY: em.keys[0]?.key,
    AGENTS_CONFIG_DIR: config,
  };
  for (const k of ['AGENTS_RATE_LIMIT', 'AGENTS_SHARED_PACING', 'AGENTS_BUDGET_URL', 'CI']) delete env[k];
  em.setFaults({ rate: o.getFaults, modes: GET_FAULTS, methods: ['GET'] });
  const started = Date.now();
  const until = started + o.minutes * 60_000;
  const away: string[] = [];
  console.log(
    `soak: ${o.minutes} min, ${o.workers} workers (a third of first turns followed by tail), GET faults ${o.getFaults}, ` +
      `POSTs cut after commit ${o.postCuts}, away ${o.awayS.join('-')} s every ${o.restartEveryS} s`,
  );
  const cuts = setInterval(() => {
    // The emulator draws one fault set: half the time the GETs fail, half the time POSTs are cut after their
    // commit (at twice --post-cuts, so --post-cuts of them overall).
    em.setFaults(
      Math.random() < 0.5
        ? { rate: o.postCuts * 2, modes: ['reset-after-commit'], methods: ['POST'] }
        : { rate: o.getFaults, modes: GET_FAULTS, methods: ['GET'] },
    );
  }, 2000);
  try {
    await Promise.all([
      restarts(em, o, until, away),
      ...Array.from({ length: o.workers }, (_, n) => worker(n, bin, env, until, em)),
    ]);
  } finally {
    clearInterval(cuts);
  }
  const stats = em.stats();
  const repeated = repeatedPosts(em, sessions);
  await em.close();
  rmSync(config, { recursive: true, force: true });
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  console.log(
    [
      `ran ${minutes} min: ${stats.requests} requests, ${stats.faultsInjected} faults injected, ${away.length} restarts (away ${away.join(', ') || 'never'})`,
      `turns right          ${tally.right} of ${tally.turns}; the other ${tally.turns - tally.right - tally.wrong.length} ended "outcome unknown" on a POST cut after its commit, as they must`,
      `turns wrong          ${tally.wrong.length}`,
      `repeated POSTs       ${repeated}`,
      `tails exact          ${tally.tailsExact} of ${tally.tails}; messages lost ${tally.lost}, duplicated ${tally.duplicated}`,
      `hangs                ${tally.hangs}`,
      `429s                 ${stats.rejected429}`,
    ].join('\n'),
  );
  for (const w of tally.wrong) console.log(`  wrong: ${w}`);
  const failed =
    tally.wrong.length + repeated + tally.lost + tally.duplicated + tally.hangs + stats.rejected429 > 0;
  if (failed) {
    console.log('soak: FAILED');
    process.exitCode = 1;
  } else console.log('soak: passed');
}
