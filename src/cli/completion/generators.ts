// The completion scripts' generators, one module so the build makes them a chunk of their own, loaded
// only by `agents completion`.
export { commandTree } from './command-tree.js';
export { bash } from './bash.js';
export { zsh } from './zsh.js';
export { fish } from './fish.js';
