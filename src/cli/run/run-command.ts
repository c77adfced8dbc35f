// What main() runs once a command line has parsed: the Context, the command, its result presented. One
// module, so that a run's start is one `await import()` (each file of dist/ the loader reads costs ~1 ms).
import type { Command } from 'commander';
import type { IO } from '../../core/index.js';
import { ownPrint, type Kinded, type OwnItems, type Result } from '../output/items.js';
import { present } from '../output/presenter.js';
import { createContext, type Context, type GlobalOptions } from './context.js';

/** The run for `agents budget` to show: the command and the options given on its line, never their values. */
function commandLabel(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c !== null && c.parent !== null; c = c.parent) names.unshift(c.name());
  const given = cmd.options
    .filter((o) => cmd.getOptionValueSource(o.attributeName()) === 'cli')
    .map((o) => o.long ?? o.short ?? '')
    .filter((n) => n !== '' && !/^--(no-)?(json|quiet|color|debug|profile|base-url)$/.test(n));
  return [...names, ...given].join(' ');
}

/** `body` on the command's run.ts (`load`), its result presented by the module's `print`; then closes. */
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
