// Helpers of the hostile suite: an emulator per test that the test itself closes (the suites here run
// tests concurrently, so the shared afterEach of test/support/fixture.ts, which closes every emulator, cannot
// be used), the program run in-process against it, and checks shared by the files.
import type { EmulatorOptions, RunningEmulator } from '../../src/emulator/index.js';
import type { Message, Session } from '../../src/core/api/types.js';
import { endTurn, ownEmulator } from './emulator.js';
import { KEY } from './key.js';
import { cliEnv, type CliResult } from './run-cli.js';
import { runMain, type MainOptions } from './main.js';
import { until } from './until.js';

export { KEY, until };

export interface Hostile {
  em: RunningEmulator;
  env: NodeJS.ProcessEnv;
  run: (args: string[], o?: MainOptions) => Promise<CliResult>;
  /** POST /sessions straight over HTTP (no CLI, no faults involved in the test's own setup). */
  createSession: (message: string) => Promise<Session>;
  close: () => Promise<void>;
}

export async function hostile(
  opts: EmulatorOptions = {},
  extraEnv: NodeJS.ProcessEnv = {},
): Promise<Hostile> {
  const em = await ownEmulator(opts);
  const env = cliEnv({ AGENTS_BASE_URL: em.url, AGENTS_API_KEY: em.keys[0]?.key ?? KEY, ...extraEnv });
  return {
    em,
    env,
    run: (args, o = {}) => runMain(args, { env, ...o }),
    createSession: async (message) => {
      const res = await fetch(`${em.url}/rest/v1/sessions`, {
        method: 'POST',
        headers: {
          authorization: `ApiKey ${em.keys[0]?.key ?? KEY}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ message, agent_name: 'claude' }),
      });
      if (res.status !== 201) throw new Error(`setup: create answered ${res.status}`);
      return (await res.json()) as Session;
    },
    close: () => em.close(),
  };
}

/** A session's first turn has its final message (a held turn is ended first: the test asks for its end). */
export function finished(em: RunningEmulator, id: string): boolean {
  endTurn(em, id);
  return em.messages(id).some((m) => m.type === 'final_message');
}

/** A JavaScript stack frame, as printed by an uncaught error. */
export const STACK = /\n\s+at .+:\d+:\d+\)?$/m;

/** The messages `show` prints without --tools, in storage order. */
export function shown(messages: Message[]): string[] {
  return messages.filter((m) => m.type !== 'tool_call').map((m) => m.id);
}

/** NDJSON lines to Messages. */
export function ndjson(text: string): Message[] {
  return text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Message);
}
