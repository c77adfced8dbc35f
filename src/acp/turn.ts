// One prompt turn of a panel session: its updates go out in order until it is over (its final reply, a
// cancel, a newer prompt). `stopped` settles at a cancel at once, whatever the turn was doing.
import type { SessionUpdate, StopReason } from '@agentclientprotocol/sdk';

/** Sends one update to the editor, in order with the others (the session's queue). */
export type UpdateSink = (update: SessionUpdate) => Promise<void>;

export class Turn {
  private readonly stop = new AbortController();
  /** Aborts when the turn is cancelled or superseded: its follow stops. */
  readonly signal = this.stop.signal;
  /** Whether the turn is over: no update goes out for it any more. */
  done = false;
  private settle!: (reason: StopReason) => void;
  /** Settles with `cancelled` when the turn is cancelled or superseded. */
  readonly stopped = new Promise<StopReason>((resolve) => (this.settle = resolve));

  constructor(private readonly sink: UpdateSink) {}

  /** Queues an update (none: nothing), unless the turn is over. */
  send(update: SessionUpdate | undefined): Promise<void> {
    return this.done || update === undefined ? Promise.resolve() : this.sink(update);
  }

  /** Cancels the turn unless over: only `last` (the panel's note, queued) goes out after, then `stopped` settles. */
  cancel(last?: SessionUpdate): boolean {
    if (this.done) return false;
    const note = last === undefined ? Promise.resolve() : this.sink(last);
    this.done = true;
    this.stop.abort('cancelled');
    void note.finally(() => this.settle('cancelled'));
    return true;
  }
}
