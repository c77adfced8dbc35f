// Scenario 3: a burst of messages stored at once on a thread that two children follow, one with our
// poller and one with the naive loop, plus baseline children (one that only starts, one that also sends a
// single request) before them. The burst lands after each
// child's first poll has come back, so it falls between two polls as the hazard describes.
import { fork, type ChildProcess } from 'node:child_process';
import { setTimeout as delay } from 'node:timers/promises';
import { ApiClient } from '../../src/core/api/client.js';
import type { Message } from '../../src/core/api/types.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { CHILD_ENV, type ChildConfig, type ChildReport, type ChildResult } from './child-protocol.js';
import { Tally } from './tally.js';

/** A followed burst as the parent sees it. */
export interface BurstRun {
  report: ChildResult;
  /** Lines the child printed, repeats included. */
  yields: number;
  duplicates: number;
  misses: number;
  /** Printed ids that were not part of the burst. */
  foreign: number;
  /** From storing the burst to the final message printed, ms (Infinity when never printed). */
  followMs: number;
}

/** Scenario 3's figures. */
export interface BurstResult {
  size: number;
  baselineRssKb: number;
  /** Peak RSS of a child that starts and sends one request, KiB. */
  oneRequestRssKb: number;
  ours: BurstRun;
  naive: BurstRun;
}

/** The seconds of `ts` the burst spans, as a provider's backlog flushed at once would. */
const TS_SPREAD_S = 3;
/** Bodies about the size of a short agent message. */
const BODY =
  'The agent reports progress on the task at hand; this line stands in for a real message. '.repeat(2);

interface ChildHandle {
  /** Resolves when the first poll is answered; rejects if the child ends first. */
  polled(): Promise<void>;
  done: Promise<{ report: ChildResult; stdout: string }>;
  process: ChildProcess;
}

function startChild(script: string, cfg: ChildConfig, guardMs: number): ChildHandle {
  const child = fork(script, [], {
    // The V8 flag bin/agents.js sets for every run: undici's WebAssembly parser stays on Liftoff (its
    // TurboFan tier-up alone costs some 35 MB), so the child's memory is the CLI's.
    execArgv: ['--liftoff-only'],
    env: { ...process.env, [CHILD_ENV]: JSON.stringify(cfg) },
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
  });
  const chunks: Buffer[] = [];
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk));
  let result: ChildResult | undefined;
  let markPolled = () => {};
  const polledSignal = new Promise<void>((resolve) => (markPolled = resolve));
  child.on('message', (msg: ChildReport) => {
    if (msg.kind === 'polled') markPolled();
    else result = msg;
  });
  const done = new Promise<{ report: ChildResult; stdout: string }>((resolve, reject) => {
    const guard = setTimeout(() => {
      child.kill();
      reject(new Error(`the ${cfg.mode} burst child was still running after ${guardMs} ms`));
    }, guardMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(guard);
      if (code === 0 && result) resolve({ report: result, stdout: Buffer.concat(chunks).toString('utf8') });
      else reject(new Error(`the ${cfg.mode} burst child exited with ${code ?? signal} and no result`));
    });
  });
  // Built on demand: the baseline child never polls, and nobody waits for it to.
  const polled = () =>
    Promise.race([
      polledSignal,
      done.then(() => {
        throw new Error(`the ${cfg.mode} burst child ended before its first poll came back`);
      }),
    ]);
  return { polled, done, process: child };
}

function storeBurst(em: RunningEmulator, sessionId: string, threadId: string, size: number): string[] {
  const nowS = Math.floor(Date.now() / 1000);
  const ids: string[] = [];
  const add = (m: Pick<Message, 'type' | 'message' | 'ts'>) =>
    ids.push(em.addMessage(sessionId, { chat_thread_id: threadId, role: 'assistant', ...m }).id);
  for (let i = 0; i < size; i += 1) {
    const ts = nowS - TS_SPREAD_S + Math.floor((i * (TS_SPREAD_S + 1)) / size);
    add({ type: 'message', message: `Step ${i + 1}. ${BODY}`, ts });
  }
  add({ type: 'final_message', message: 'The burst is over.', ts: nowS });
  return ids;
}

function tallyOf(stdout: string, expected: string[], report: ChildResult, burstAt: number): BurstRun {
  const tally = new Tally();
  for (const line of stdout.split('\n')) {
    if (line !== '') tally.record(JSON.parse(line) as Message, 0);
  }
  return {
    report,
    yields: tally.yields,
    duplicates: tally.duplicates,
    misses: tally.misses(expected),
    foreign: tally.foreign(new Set(expected)),
    followMs: report.finalAtMs === undefined ? Number.POSITIVE_INFINITY : report.finalAtMs - burstAt,
  };
}

/** Runs scenario 3 on an emulator of its own (the burst moves the storage clock ten seconds ahead). */
export async function burstScenario(
  childScript: string,
  size: number,
  progress: (line: string) => void,
): Promise<BurstResult> {
  const keys = ['bench-s3-setup', 'bench-s3-ours', 'bench-s3-naive'].map((key) => ({
    key,
    workspace: 'bench',
  }));
  const em = await startEmulator({ port: 0, rateLimit: false, timeScale: 1, keys });
  const children: ChildProcess[] = [];
  try {
    const setup = new ApiClient({ baseUrl: em.url, apiKey: 'bench-s3-setup' });
    // A turn that stores nothing by itself: the burst is all the thread will hold.
    const s = await setup.createSession({
      agent_name: 'claude',
      message: 'Benchmark: a burst [[never]] [[steps:0]]',
    });
    const threadId = s.thread_id;
    const threadHref = s._links.thread?.href;
    if (!threadId || !threadHref) throw new Error('the create response has no thread_id or thread link');
    const config = (mode: ChildConfig['mode'], apiKey: string, deadlineMs: number): ChildConfig => ({
      mode,
      baseUrl: em.url,
      apiKey,
      sessionId: s.id,
      threadId,
      threadHref,
      deadlineMs,
    });

    // One at a time, before the followers, so that nothing else runs beside them.
    const baseline = startChild(childScript, config('baseline', 'bench-s3-setup', 10_000), 30_000);
    children.push(baseline.process);
    const baselineRssKb = (await baseline.done).report.maxRssKb;
    const single = startChild(childScript, config('one-request', 'bench-s3-setup', 10_000), 30_000);
    children.push(single.process);
    const oneRequestRssKb = (await single.done).report.maxRssKb;

    // Ours may wait out a pacing window (100 requests a minute) if the burst needs more than 100 pages.
    const ours = startChild(childScript, config('ours', 'bench-s3-ours', 150_000), 170_000);
    const naive = startChild(childScript, config('naive', 'bench-s3-naive', 20_000), 40_000);
    children.push(ours.process, naive.process);
    await Promise.all([ours.polled(), naive.polled()]);
    await delay(250);
    const burstAt = Date.now();
    const expected = storeBurst(em, s.id, threadId, size);
    progress(`scenario 3: ${size} messages stored in ${Date.now() - burstAt} ms; following`);
    const [o, n] = await Promise.all([ours.done, naive.done]);
    return {
      size,
      baselineRssKb,
      oneRequestRssKb,
      ours: tallyOf(o.stdout, expected, o.report, burstAt),
      naive: tallyOf(n.stdout, expected, n.report, burstAt),
    };
  } finally {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill();
    await em.close();
  }
}
