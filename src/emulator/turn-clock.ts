// The clocks a scripted turn runs on: real timers, or one that moves only when the test says so, so no test
// waits a fixed time for a turn and none fails because a loaded machine ran a timer late.

/** A scheduled callback, as a turn sees it. */
export type TurnTimer = object;

/** What a turn schedules its messages on. */
export interface TurnClock {
  /** `owner`: the session whose turn this is (a held clock can end one session's turns). */
  after(ms: number, fn: () => void, owner: string): TurnTimer;
  cancel(t: TurnTimer): void;
  cancelAll(): void;
}

/** Real timers; owns every one it starts, so close() can stop them all. */
export class Timers implements TurnClock {
  private readonly live = new Set<NodeJS.Timeout>();

  after(ms: number, fn: () => void): NodeJS.Timeout {
    const t = setTimeout(() => {
      this.live.delete(t);
      fn();
    }, ms);
    this.live.add(t);
    return t;
  }

  cancel(t: TurnTimer): void {
    clearTimeout(t as NodeJS.Timeout);
    this.live.delete(t as NodeJS.Timeout);
  }

  cancelAll(): void {
    for (const t of this.live) clearTimeout(t);
    this.live.clear();
  }
}

type Due = { at: number; seq: number; fn: () => void; owner: string };

/** A clock that stands still until advanced: every turn stays where it is until the test moves it on. */
export class HeldClock implements TurnClock {
  /** How far the clock has been moved on, in ms. */
  elapsed = 0;
  private seq = 0;
  private readonly due = new Set<Due>();

  after(ms: number, fn: () => void, owner: string): Due {
    const d = { at: this.elapsed + Math.max(0, ms), seq: this.seq++, fn, owner };
    this.due.add(d);
    return d;
  }

  cancel(t: TurnTimer): void {
    this.due.delete(t as Due);
  }

  cancelAll(): void {
    this.due.clear();
  }

  get pending(): number {
    return this.due.size;
  }

  /** Moves on by `ms` (Infinity: until nothing is left), running what falls due (and what that schedules). */
  advance(ms: number): number {
    const until = this.elapsed + ms;
    const ran = this.run((d) => d.at <= until, true);
    if (Number.isFinite(until)) this.elapsed = until;
    return ran;
  }

  /** Plays one session's turn to its end at once, leaving the clock where it is. */
  finish(owner: string): number {
    return this.run((d) => d.owner === owner, false);
  }

  private run(pick: (d: Due) => boolean, move: boolean): number {
    let ran = 0;
    for (;;) {
      let next: Due | undefined;
      for (const d of this.due) {
        if (pick(d) && (!next || d.at < next.at || (d.at === next.at && d.seq < next.seq))) next = d;
      }
      if (!next) return ran;
      this.due.delete(next);
      if (move) this.elapsed = next.at;
      next.fn();
      ran += 1;
    }
  }
}
