// The completion generators in one module: the build makes them a chunk loaded only by `agents completion`.
export { commandTree } from './command-tree.js';
export { bash } from './bash.js';
export { zsh } from './zsh.js';
export { fish } from './fish.js';
