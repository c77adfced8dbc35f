// What commands return for the presenter to print: data, never text. The one list of the items of each
// command's own (src/cli/commands/<name>/items.ts: its item types and how each prints), from which the
// `Item` union and the presenter's table are derived; beside them, what src/core/events yields while posting
// and waiting (print-waits.ts) and what several commands yield (print-shared.ts).
import type { SessionItem } from '../../core/events/session-items.js';
import type { ItemsOf } from './printer.js';
import type { SharedItem } from './print-shared.js';
import { print as create } from '../commands/create/items.js';
import { print as send } from '../commands/send/items.js';
import { print as show } from '../commands/show/items.js';
import { print as chat } from '../commands/chat/items.js';
import { print as config } from '../commands/config/items.js';
import { print as checkout } from '../commands/checkout/items.js';
import { print as diff } from '../commands/diff/items.js';
import { print as budget } from '../commands/budget/items.js';

/** Every command's own handlers, one line a command that yields items of its own. */
export const COMMAND_HANDLERS = {
  ...create,
  ...send,
  ...show,
  ...chat,
  ...config,
  ...checkout,
  ...diff,
  ...budget,
};

/** One thing a command produced: what src/core/sessions yields while posting and waiting, and the rest. */
export type Item = SessionItem | SharedItem | ItemsOf<typeof COMMAND_HANDLERS>;
/** What a command returns: nothing, one item, or items as they come. */
export type Result = void | Item | Iterable<Item> | AsyncIterable<Item>;
