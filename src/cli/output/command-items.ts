// The commands that yield items of their own (their items.ts), one line each: items.ts derives `Item` from it.
export { print as create } from '../commands/create/items.js';
export { print as send } from '../commands/send/items.js';
export { print as show } from '../commands/show/items.js';
export { print as chat } from '../commands/chat/items.js';
export { print as config } from '../commands/config/items.js';
export { print as checkout } from '../commands/checkout/items.js';
export { print as diff } from '../commands/diff/items.js';
export { print as budget } from '../commands/budget/items.js';
