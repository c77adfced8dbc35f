// The wire records, one module each: its public type, its contract and the client's check of an answer.
export * from './session.js';
export * from './message.js';
export * from './page.js';
export * from './artifact.js';
export * from './error-body.js';
export { MAX_OPAQUE_ID, served } from './fields.js';
