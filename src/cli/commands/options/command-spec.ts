// What every command folder gives the program. Its spec.ts adds the command to commander's program (its
// arguments, options, help and every check that needs no network) and hands the command's work to `run`;
// its run.ts, imported only when the command runs, takes typed options and returns data.
import type { Command } from 'commander';
import type { Context } from '../../run/context.js';
import type { Result } from '../../output/items.js';

/** Runs a command's body with the run's Context and prints what it returns (cli.ts's main gives it). */
export type Runner = (cmd: Command, body: (ctx: Context) => Promise<Result> | Result) => Promise<void>;

/** A command's declaration: adds the command to `program` and returns it. */
export type CommandSpec = (program: Command, run: Runner) => Command;
