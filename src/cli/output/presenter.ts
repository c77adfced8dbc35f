// The one presenter: what commands return becomes JSON, terminal text or plain text on stdout, notes on stderr.
import type { Item, Kinded, Result } from './items.js';
import { SHARED_HANDLERS } from './print-shared.js';
import { WAIT_HANDLERS } from './print-waits.js';
import { type Handler, type Handlers, type PresentContext, Printer } from './printer.js';

/** The handler of each kind every command may yield: a new kind is one small function where its like are. */
const HANDLERS: Handlers<Item> = { ...WAIT_HANDLERS, ...SHARED_HANDLERS };

/** Prints what a command returned, item by item, as it comes; `own`: the handlers of the command's own items. */
export async function present<Own extends Kinded = never>(
  ctx: PresentContext,
  result: Result<NoInfer<Own>>,
  own?: Handlers<Own>,
): Promise<void> {
  if (result === undefined) return;
  const p = new Printer(ctx);
  const handlers: Readonly<Record<string, unknown>> = { ...HANDLERS, ...own };
  const write = (item: Kinded) => (handlers[item.kind] as Handler<Kinded>)(p, item);
  try {
    if (typeof result === 'object' && result !== null && 'kind' in result) await write(result);
    else for await (const item of result) await write(item);
  } finally {
    p.finish();
  }
}
