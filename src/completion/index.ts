// The completion scripts' generators, one module so the build can make them a part of their own
// (dist/completion.cjs), loaded only by `agents completion`.
export { completionSpec } from './spec.js';
export { bash } from './bash.js';
export { zsh } from './zsh.js';
export { fish } from './fish.js';
