// What the core's session work needs of whoever runs it (the CLI's run Context has it under these names).
import type { ApiClient } from '../api/client.js';
import type { ScheduleOptions } from '../poll/schedule.js';
import type { History } from '../state/history.js';

export interface SessionWork {
  /** Ctrl-C, a closed stdout, a caller's abort. */
  signal: AbortSignal;
  client(): Promise<ApiClient>;
  schedule: ScheduleOptions;
  history(): Promise<History>;
  log: { warn(line: string): void };
}
