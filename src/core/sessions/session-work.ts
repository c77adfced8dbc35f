// What the core's session work needs of whoever runs it, as plain options: the client, the stop signal, the
// poll schedule, this machine's history, and where a warning goes. The CLI's run Context has all of these
// under the same names and is passed as it is; another face builds the few it needs.
import type { ApiClient } from '../api/client.js';
import type { ScheduleOptions } from '../poll/schedule.js';
import type { History } from '../state/history.js';

export interface SessionWork {
  /** Stops the work: Ctrl-C, a closed stdout, a caller's abort. */
  signal: AbortSignal;
  /** The API client, made on first use. */
  client(): Promise<ApiClient>;
  /** The poll schedule (tests make it fast). */
  schedule: ScheduleOptions;
  /** What this machine recorded for the profile on the client's service (`last`, known sessions). */
  history(): Promise<History>;
  /** Where a line about the work goes (a service that is failing while a wait rides it out). */
  log: { warn(line: string): void };
}
