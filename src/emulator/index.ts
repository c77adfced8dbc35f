// The local Agent Sessions API emulator, with scripted agents and fault injection (README.md). Never imported
// by the client path: only by `agents emulator`, tests, demos and benchmarks.
export { startEmulator } from './server.js';
export { DEV_KEY } from './emulation.js';
export { FAULT_MODES } from './surface.js';
export { BAD_IDS, MISBEHAVIOURS, misbehaviourOf } from './misbehave.js';
export type { Misbehaviour, MisbehaviourName } from './misbehave.js';
export type { RepeatedParams } from './validate.js';
export type { DialectName } from './dialect.js';
export type * from './surface.js';
