// What main() runs once a command line has parsed: the run's Context, the command's body, and what it
// returns presented. One module for the three, so that a run's start is one `await import()` of the
// request runtime rather than two (each file of dist/ the loader resolves is about a millisecond).
import type { IO } from '../../core/index.js';
import type { Result } from '../output/items.js';
import { present } from '../output/presenter.js';
import { createContext, type Context, type GlobalOptions } from './context.js';

/** Runs `body` with a new Context and presents its result; `started` gets the Context, for main to close. */
export async function runCommand(
  io: IO,
  globals: GlobalOptions,
  label: string,
  body: (ctx: Context) => Promise<Result> | Result,
  started: (ctx: Context) => void,
): Promise<void> {
  const ctx = await createContext(io, globals, label);
  started(ctx);
  await present(ctx, await body(ctx));
}
