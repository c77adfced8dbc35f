// undici, through its public entry point: its request API, the Agent (a connection pool per origin, with our
// time-outs) and the EnvHttpProxyAgent, imported with the first request of a client that sends through undici
// (exchange.ts), so no other run loads undici (in dist/ it is a chunk of its own).
import { Agent, EnvHttpProxyAgent, request as undiciRequest, type Dispatcher } from 'undici';

// Its index loads all of undici (fetch, WebSocket, caches, mocks, HTTP/2); the files behind it are undici's
// to move in any release, so nothing of ours names them.
export { Agent, EnvHttpProxyAgent };

let tuned = false;

/**
 * Keeps WebAssembly at V8's baseline code for this process; the exchange calls it before undici's first
 * request. undici parses HTTP with llhttp compiled to WebAssembly, which V8 first compiles with its
 * baseline compiler and then, left to tier up, again with its optimising one in the background: for a
 * command's few responses that costs about 10 MB of peak memory and 40 ms of CPU, and the process waits
 * for that compile before it can exit. A tiering budget no CLI run spends keeps the baseline code (read
 * when a WebAssembly module is compiled: undici compiles llhttp on its first connection, after this). A
 * V8 flag is the process's: set only by a run that sends through undici, never by importing this module.
 */
export function keepWasmBaseline(): void {
  if (tuned) return;
  tuned = true;
  process.getBuiltinModule('node:v8').setFlagsFromString('--wasm-tiering-budget=2147483647');
}

/** The options of one request; `dispatcher` is required (ours carry the time-outs and proxy settings). */
export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Dispatcher };

/** undici's `request(url, options)`, always through the dispatcher given. */
export function request(url: string | URL, options: RequestOptions): Promise<Dispatcher.ResponseData> {
  return undiciRequest(url, options);
}
