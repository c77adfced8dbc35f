// What main() runs once a command line has parsed: the run's Context, the command's body, and what it
// returns presented. One module for the three, so that a run's start is one `await import()` of the
// request runtime rather than two (each file of dist/ the loader resolves is about a millisecond).
import type { IO } from '../../core/index.js';
import { ownPrint, type Kinded, type OwnItems, type Result } from '../output/items.js';
import { present } from '../output/presenter.js';
import { createContext, type Context, type GlobalOptions } from './context.js';

/**
 * Runs `body` with a new Context and the command's run.ts (`load`), and presents its result, its own items by
 * the module's `print`; `started` gets the Context, for main to close.
 */
export async function runCommand<M extends object>(
  io: IO,
  globals: GlobalOptions,
  label: string,
  load: () => Promise<M>,
  body: (m: M, ctx: Context) => Promise<Result<OwnItems<M>>> | Result<OwnItems<M>>,
  started: (ctx: Context) => void,
): Promise<void> {
  const ctx = await createContext(io, globals, label);
  started(ctx);
  const m = await load();
  await present<Kinded>(ctx, await body(m, ctx), ownPrint(m));
}
