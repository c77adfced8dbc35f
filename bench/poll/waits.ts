// Scenarios 1 and 2: waiting for a thread's final message, the way `create --wait` does, for our poller
// and the naive loop. Each run creates its own session with its poller's key, then waits on its thread.
import { setTimeout as delay } from 'node:timers/promises';
import { ApiClient } from '../../src/core/api/client.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { Follower } from '../../src/core/poll/follow.js';
import { hrefGetter, naivePoll } from './naive.js';
import { Tally } from './tally.js';

/** Which poller a run uses. */
export type Poller = 'ours' | 'naive';

/** One wait, measured. */
export interface WaitSample {
  /** List requests until the final message (or until the deadline, when it never came). */
  requests: number;
  /** Moment yielded − the final message's created_at, ms; Infinity when it was never yielded. */
  latenessMs: number;
  duplicates: number;
}

/** The runs of one scenario, per poller, in run order. */
export interface PairedWaits {
  ours: WaitSample[];
  naive: WaitSample[];
}

/** The keys scenarios 1 and 2 use; pacing is per key, so no two concurrent runs share one. */
export function waitKeys(longRuns: number): string[] {
  const keys = ['bench-s1-ours', 'bench-s1-naive'];
  for (let i = 1; i <= longRuns; i += 1) keys.push(`bench-s2-ours-${i}`, `bench-s2-naive-${i}`);
  return keys;
}

/** A client and the key it uses (the naive loop follows links with the key itself). */
interface Keyed {
  client: ApiClient;
  apiKey: string;
}

function clientFor(em: RunningEmulator, apiKey: string): Keyed {
  // Default pacing (100 a minute per key) stays on: it is what users get.
  return { client: new ApiClient({ baseUrl: em.url, apiKey }), apiKey };
}

/**
 * Sleeps until the wall clock is `phase` (0..1) of the way through a second. The `ts` cursor counts whole
 * seconds, so where in its second a run starts decides whether the naive loop loses the reply; spreading
 * the runs' phases evenly samples that fairly instead of letting back-to-back runs share one phase.
 */
async function atPhase(phase: number): Promise<void> {
  await delay((phase * 1000 - (Date.now() % 1000) + 1000) % 1000);
}

/** Run i of n starts at a random moment of the i-th n-th of a second. */
const phaseOf = (i: number, n: number) => (i + Math.random()) / n;

async function waitOnce(
  em: RunningEmulator,
  { client, apiKey }: Keyed,
  poller: Poller,
  prompt: string,
  deadlineMs: number,
): Promise<WaitSample> {
  const s = await client.createSession({ agent_name: 'claude', message: prompt });
  const threadId = s.thread_id;
  const href = s._links.final_message?.href;
  if (!threadId || !href) throw new Error('the create response has no thread_id or final_message link');
  const signal = AbortSignal.timeout(deadlineMs);
  const tally = new Tally();
  let requests: number;
  if (poller === 'ours') {
    // What `--wait` builds.
    const follower = new Follower({
      client,
      target: { sessionId: s.id, threadId },
      types: ['final_message'],
      untilFinal: true,
      signal,
    });
    try {
      for await (const m of follower) tally.record(m, Date.now());
    } catch (err) {
      if (!signal.aborted) throw err;
    }
    requests = follower.requests;
  } else {
    const result = await naivePoll({
      get: hrefGetter(apiKey),
      href,
      signal,
      onPage: (items, at) => items.forEach((m) => tally.record(m, at)),
    });
    requests = result.requests;
  }
  const final = em
    .messages(s.id)
    .find((m) => m.chat_thread_id === threadId && m.role === 'assistant' && m.type === 'final_message');
  if (!final) throw new Error(`the emulator stored no final message within ${deadlineMs} ms`);
  const at = tally.firstAt(final.id);
  return {
    requests,
    latenessMs: at === undefined ? Number.POSITIVE_INFINITY : at - Date.parse(final.created_at),
    duplicates: tally.duplicates,
  };
}

/** Scenario 1: a reply 0.5 s after the create, `runs` times; the two pollers run side by side each time. */
export async function replyScenario(
  em: RunningEmulator,
  runs: number,
  progress: (line: string) => void,
): Promise<PairedWaits> {
  const ours = clientFor(em, 'bench-s1-ours');
  const naive = clientFor(em, 'bench-s1-naive');
  const prompt = 'Benchmark: a quick reply [[turn:500]] [[steps:0]]';
  // 3.5 s is seven times the reply's delay: a poller that has not got it by then has lost it. It also keeps
  // the naive key at 5 requests a run, under the pace for 15 runs.
  const deadlineMs = 3500;
  const out: PairedWaits = { ours: [], naive: [] };
  for (let i = 0; i < runs; i += 1) {
    await atPhase(phaseOf(i, runs));
    const [o, n] = await Promise.all([
      waitOnce(em, ours, 'ours', prompt, deadlineMs),
      waitOnce(em, naive, 'naive', prompt, deadlineMs),
    ]);
    out.ours.push(o);
    out.naive.push(n);
    progress(`scenario 1: run ${i + 1}/${runs}`);
  }
  return out;
}

/** The scripted length of scenario 2's turn, ms. */
export const LONG_TURN_MS = 40_000;

/** Scenario 2: a 40 s turn, `runs` pairs at once (started within one second), each wait on its own key. */
export async function longTurnScenario(
  em: RunningEmulator,
  runs: number,
  progress: (line: string) => void,
): Promise<PairedWaits> {
  const prompt = `Benchmark: a long turn [[turn:${LONG_TURN_MS}]] [[steps:3]]`;
  // A poller still waiting 8 s after the final landed has missed it (or is far past the 3 s target).
  const deadlineMs = LONG_TURN_MS + 8000;
  const pairs = Array.from({ length: runs }, async (_, i) => {
    await atPhase(phaseOf(i, runs));
    return Promise.all([
      waitOnce(em, clientFor(em, `bench-s2-ours-${i + 1}`), 'ours', prompt, deadlineMs),
      waitOnce(em, clientFor(em, `bench-s2-naive-${i + 1}`), 'naive', prompt, deadlineMs),
    ]);
  });
  const done = await Promise.all(pairs);
  progress(`scenario 2: ${runs} pair(s) done`);
  return { ours: done.map(([o]) => o), naive: done.map(([, n]) => n) };
}
