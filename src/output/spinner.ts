// A spinner on stderr, only on an interactive terminal; a no-op everywhere else. ora is loaded only then.
import type { Context } from '../context.js';

/** A running spinner (or nothing). `stop` is safe to call on every path, more than once. */
export interface Spinner {
  text(text: string): void;
  stop(): void;
  /** True while it is spinning (its line would swallow anything else written to stderr). */
  readonly active: boolean;
}

const NONE: Spinner = { text: () => undefined, stop: () => undefined, active: false };

export async function startSpinner(ctx: Context, text: string): Promise<Spinner> {
  if (!ctx.caps.spinner) return NONE;
  const { default: ora } = await import('ora');
  // discardStdin: false, or ora swallows the user's Ctrl-C handling and any piped input.
  const s = ora({
    text,
    stream: process.stderr,
    discardStdin: false,
    color: ctx.caps.color ? 'cyan' : false,
    isEnabled: true,
  }).start();
  return {
    text: (t) => {
      s.text = t;
    },
    stop: () => {
      if (s.isSpinning) s.stop();
    },
    get active() {
      return s.isSpinning;
    },
  };
}
