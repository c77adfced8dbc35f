// What commands return for the presenter to print: data, never text (the commands' own: command-items.ts).
import type { SessionItem } from '../../core/events/session-items.js';
import type { Handlers, ItemsOf } from './printer.js';
import type { SharedItem } from './print-shared.js';
import * as COMMANDS from './command-items.js';

type Commands = typeof COMMANDS;
/** What the commands yield of their own. */
type CommandItem = { [C in keyof Commands]: ItemsOf<Commands[C]> }[keyof Commands];

/** Every command's own handlers, in one table. */
export const COMMAND_HANDLERS = Object.assign({}, ...Object.values(COMMANDS)) as Handlers<CommandItem>;

/** One thing a command produced: what src/core/sessions yields while posting and waiting, and the rest. */
export type Item = SessionItem | SharedItem | CommandItem;
/** What a command returns: nothing, one item, or items as they come. */
export type Result = void | Item | Iterable<Item> | AsyncIterable<Item>;
