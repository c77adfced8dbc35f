// What main() runs once a command line has parsed: the run's Context, the command's body, and what it
// returns presented. One module for the three, so that a run's start is one `await import()` of the
// request runtime rather than two (each file of dist/ the loader resolves is about a millisecond).
import type { Command } from 'commander';
import type { IO } from '../../core/index.js';
import { ownPrint, type Kinded, type OwnItems, type Result } from '../output/items.js';
import { present } from '../output/presenter.js';
import { createContext, type Context, type GlobalOptions } from './context.js';

/**
 * What a run is, in a few words for `agents budget` to show beside its waiting requests: the command and the
 * long names of the options given on its command line (not by default or env), never their values, which
 * may be a prompt or a key.
 */
function commandLabel(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c !== null && c.parent !== null; c = c.parent) names.unshift(c.name());
  const given = cmd.options
    .filter((o) => cmd.getOptionValueSource(o.attributeName()) === 'cli')
    .map((o) => o.long ?? o.short ?? '')
    .filter((n) => n !== '' && !/^--(no-)?(json|quiet|color|debug|profile|base-url)$/.test(n));
  return [...names, ...given].join(' ');
}

/**
 * Runs `body` with a new Context and the command's run.ts (`load`), and presents its result, its own items by
 * the module's `print`; the Context is closed (a spinner stopped) before an error reaches main's last lines.
 */
export async function runCommand<M extends object>(
  io: IO,
  cmd: Command,
  load: () => Promise<M>,
  body: (m: M, ctx: Context) => Promise<Result<OwnItems<M>>> | Result<OwnItems<M>>,
): Promise<void> {
  const ctx = await createContext(io, cmd.optsWithGlobals<GlobalOptions>(), commandLabel(cmd));
  try {
    const m = await load();
    await present<Kinded>(ctx, await body(m, ctx), ownPrint(m));
  } finally {
    ctx.close();
  }
}
