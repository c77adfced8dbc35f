// What a process that hosts a protocol face (`agents mcp`, `agents acp`) gives it: the library's client made
// with the run's key, base URL and budget, this machine's history, two settings, a log, and the run's streams
// and signal. The face is written against this alone, so it never learns how the CLI keeps its run; the CLI
// adapts its own (src/cli/run/host.ts). `Client` is the library's Agents: the core may not name it.
import type { CoreAgent } from '../api/types.js';
import type { History } from '../state/history.js';
import { recordLast, type UsedSession } from '../state/last-session.js';
import type { InStream, OutStream } from '../io/io.js';

export interface Host<Client> {
  /** The library's client for the run (made once, on first use). */
  agents(): Promise<Client>;
  /** What this machine recorded for the profile on the run's service (`last`, known sessions). */
  history(): Promise<History>;
  /** The config profile in effect, read from no file. */
  profile(): string;
  /** The run's API key, if any (rejects when the settings cannot be read). */
  apiKey(): Promise<string | undefined>;
  /** The agent a new session uses when none is named (env AGENTS_AGENT, config "agent"). */
  defaultAgent(): Promise<CoreAgent | undefined>;
  log: { info(line: string): void; warn(line: string): void; debug(line: string): void };
  signal: AbortSignal;
  stdin: InStream;
  stdout: OutStream;
  homedir: string;
}

/** The run's key, to blank it out of anything sent or logged (none when the settings cannot be read). */
export function secretOf(host: Host<unknown>): Promise<string | undefined> {
  return host.apiKey().catch(() => undefined);
}

/** Records a turn just posted as the profile's `last`, its session working; a failed write is a warning. */
export async function recordWorking(
  host: Host<unknown>,
  turn: { sessionId: string; threadId: string },
  facts: UsedSession = {},
): Promise<void> {
  const entry = { id: turn.sessionId, threadId: turn.threadId };
  const warning = await recordLast(await host.history(), entry, { ...facts, state: 'working' });
  if (warning) host.log.warn(warning);
}
