// The local Agent Sessions API emulator: the whole API of ../shared/spec/agent-sessions-api.md on
// loopback, with scripted agents and fault injection. Never imported by the client path; only by the
// `agents emulator` command, tests, demos and benchmarks. Directive grammar and decisions: README.md.
export { startEmulator, DEV_KEY } from './server.js';
export { FAULT_MODES } from './surface.js';
export { BAD_IDS, MISBEHAVIOURS, misbehaviourOf } from './misbehave.js';
export type { Misbehaviour, MisbehaviourName } from './misbehave.js';
export type { RepeatedParams } from './validate.js';
export type { DialectName } from './dialect.js';
export type * from './surface.js';
