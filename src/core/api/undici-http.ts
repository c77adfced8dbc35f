// undici, through its public entry point, imported with the first request of a client that sends through it
// (exchange.ts), so no other run loads undici (in dist/ it is a chunk of its own).
import { Agent, EnvHttpProxyAgent, request as undiciRequest } from 'undici';

// Its index loads all of undici; the files behind it are undici's to move in any release, so none is named.
export { Agent, EnvHttpProxyAgent, undiciRequest as request };

let tuned = false;

/**
 * Keeps WebAssembly at V8's baseline code, before undici's first request: left to tier up, V8 compiles
 * undici's llhttp again in the background, which for a command's few responses costs about 10 MB of peak
 * memory and 40 ms of CPU, and the process waits for it to exit. A V8 flag is the process's: set only by a
 * run that sends through undici, never by importing this module.
 */
export function keepWasmBaseline(): void {
  if (tuned) return;
  tuned = true;
  process.getBuiltinModule('node:v8').setFlagsFromString('--wasm-tiering-budget=2147483647');
}
