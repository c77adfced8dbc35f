// The commands that yield items of their own, one line each: a command's items.ts (its item types and how
// each prints) named here is in the `Item` union and the presenter's table (items.ts derives both).
export { print as create } from '../commands/create/items.js';
export { print as send } from '../commands/send/items.js';
export { print as show } from '../commands/show/items.js';
export { print as chat } from '../commands/chat/items.js';
export { print as config } from '../commands/config/items.js';
export { print as checkout } from '../commands/checkout/items.js';
export { print as diff } from '../commands/diff/items.js';
export { print as budget } from '../commands/budget/items.js';
