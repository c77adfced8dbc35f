// What every command folder gives the program. Its spec.ts adds the command to commander's program (its
// arguments, options, help and every check that needs no network) and hands the command's work to `run`;
// its run.ts, imported only when the command runs, takes typed options and returns data.
import type { Command } from 'commander';
import type { Context } from '../../run/context.js';
import type { OwnItems, Result } from '../../output/items.js';

/** Runs a command (cli.ts's main gives it): `load` imports its run.ts, `body` runs it with the run's Context;
 * what it returns is printed, its own items by the module's `print`. */
export type Runner = <M extends object>(
  cmd: Command,
  load: () => Promise<M>,
  body: (m: M, ctx: Context) => Promise<Result<OwnItems<M>>> | Result<OwnItems<M>>,
) => Promise<void>;

/** A command's declaration: adds the command to `program` and returns it. */
export type CommandSpec = (program: Command, run: Runner) => Command;
