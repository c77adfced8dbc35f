// What commands return for the presenter to print: data, never text. A command's items of its own live in its
// folder (items.ts: their types and `print`, the handler of each kind), which its run.ts exports as `print`.
import type { SessionItem } from '../../core/index.js';
import type { Handlers, ItemsOf } from './printer.js';
import type { SharedItem } from './print-shared.js';

/** One thing a command produced: what src/core/sessions yields while posting and waiting, and the shared rest. */
export type Item = SessionItem | SharedItem;

/** What a command returns: nothing, one item, or items as they come; `Own`: the kinds of its own it yields. */
export type Result<Own = never> = void | Item | Own | Iterable<Item | Own> | AsyncIterable<Item | Own>;

export type Kinded = { kind: string };

/** The items of its own that a command's run.ts prints with the `print` it exports (none without). */
export type OwnItems<M> = M extends { print: infer H } ? Extract<ItemsOf<H>, Kinded> : never;

/** The handlers of a command's own items: its run.ts's `print`, if it has one. */
export function ownPrint(m: object): Handlers<Kinded> | undefined {
  return 'print' in m ? (m.print as Handlers<Kinded>) : undefined;
}
