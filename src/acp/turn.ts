// One prompt turn of a panel session: its updates go out in order through the session's queue until the
// turn is over (its final reply, a cancel, a newer prompt), and none after. `stopped` settles at a cancel at
// once, whatever the turn was doing (a POST in flight, a poll).
import type { SessionUpdate, StopReason } from '@agentclientprotocol/sdk';

/** Sends one update to the editor, in order with the others (the session's queue). */
export type UpdateSink = (update: SessionUpdate) => Promise<void>;

/** A prompt in progress. */
export class Turn {
  private readonly stop = new AbortController();
  private over = false;
  private settle!: (reason: StopReason) => void;
  /** Settles with `cancelled` when the turn is cancelled or superseded. */
  readonly stopped: Promise<StopReason>;
  /** The turn's thread, once the service named it. */
  threadId: string | undefined;

  constructor(private readonly sink: UpdateSink) {
    this.stopped = new Promise((resolve) => (this.settle = resolve));
  }

  /** Aborts when the turn is cancelled or superseded: its follow stops. */
  get signal(): AbortSignal {
    return this.stop.signal;
  }

  /** Whether the turn is over (no update goes out for it any more). */
  get done(): boolean {
    return this.over;
  }

  /** Queues an update for the turn; none once it is over. */
  send(update: SessionUpdate): Promise<void> {
    return this.over ? Promise.resolve() : this.sink(update);
  }

  /** The turn reached its final reply: nothing more goes out for it. */
  finish(): void {
    this.over = true;
  }

  /**
   * Cancels the turn: nothing more goes out for it but `last` (the panel's note, queued behind what was
   * queued before), then `stopped` settles. A turn already over is left as it is.
   */
  cancel(last?: SessionUpdate): boolean {
    if (this.over) return false;
    const note = last === undefined ? Promise.resolve() : this.sink(last);
    this.over = true;
    this.stop.abort('cancelled');
    void note.finally(() => this.settle('cancelled'));
    return true;
  }
}
