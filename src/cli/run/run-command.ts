// What the runner (cli.ts's main) does once a command line has parsed: the run's Context, the command's
// body, and what it returns presented. One module for the three, so that a run's start is one
// `await import()` of the request runtime rather than two: each is a file of dist/ the ES module loader
// resolves, reads and links, about a millisecond of every command that runs.
import type { IO } from '../../core/io/io.js';
import type { Result } from '../output/items.js';
import { present } from '../output/presenter.js';
import { createContext, type Context, type GlobalOptions } from './context.js';

/**
 * Runs `body` with a new Context and presents its result. `started` gets the Context as soon as it exists,
 * so that the caller can close it whatever happens after.
 */
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
