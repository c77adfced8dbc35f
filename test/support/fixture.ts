// One emulator per test, and the program run in-process against it (as a script: pipes, no terminal).
import type { Message } from '../../src/core/api/types.js';
import type { EmulatorOptions, RunningEmulator } from '../../src/emulator/index.js';
import { emulator } from './emulator.js';
import { KEY } from './key.js';
import { cliEnv, type CliResult } from './run-cli.js';
import { runMain, type MainOptions, type RunHandle } from './main.js';
import { until } from './until.js';

export { KEY, until };

export interface Fixture {
  em: RunningEmulator;
  env: NodeJS.ProcessEnv;
  /** Runs `agents …` against this emulator, in-process. */
  run: (args: string[], o?: MainOptions) => Promise<CliResult>;
}

export async function fixture(
  opts: EmulatorOptions = {},
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<Fixture> {
  const em = await emulator(opts);
  const env = cliEnv({ AGENTS_BASE_URL: em.url, AGENTS_API_KEY: KEY, ...extraEnv });
  return { em, env, run: (args, o = {}) => runMain(args, { env, ...o }) };
}

/**
 * The assistant's side of a conversation as stored, the way a person should see it: without the live
 * service's notices (no thread) and without its copy of a final reply (the `message` stored right before a
 * final with the same text). Written out here, not taken from src/core/conversation, so the tests check it.
 */
export function conversationOf(stored: readonly Message[], thread?: string | null): Message[] {
  const assistant = stored.filter(
    (m) =>
      m.role === 'assistant' &&
      m.chat_thread_id !== null &&
      (thread === undefined || m.chat_thread_id === thread),
  );
  return assistant.filter((m, i) => {
    const next = assistant[i + 1];
    return !(m.type === 'message' && next?.type === 'final_message' && next.message === m.message);
  });
}

/** The two services the end-to-end suites run against: the document, and Blocks as it answers today. */
export const DIALECTS = ['spec', 'live'] as const;

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The emulator's stats key for a poll of one thread (what --wait and --follow make). */
export const THREAD_POLL = 'GET /sessions/:id/threads/:tid/messages';
/** The stats key for a poll of a whole session (what tail makes). */
export const SESSION_POLL = 'GET /sessions/:id/messages';

/**
 * An `onStart` that stops the run with `signal` once `probe` holds (the run has reached the point under
 * test). Should the condition never come, no signal is sent and the run ends by `killAfterMs` instead, so
 * the test fails on its exit code.
 */
export function stopWhen(
  probe: (run: RunHandle) => boolean,
  signal: 'SIGINT' | 'SIGTERM' | 'EPIPE',
): (run: RunHandle) => void {
  return (run) => {
    until(() => probe(run)).then(
      () => run.kill(signal),
      () => undefined,
    );
  };
}

/** True once the emulator has answered at least one poll of `route` and been asked again: a wait is on. */
export function polled(em: RunningEmulator, route: string = THREAD_POLL): () => boolean {
  return () => (em.stats().byRoute[route] ?? 0) >= 2;
}
