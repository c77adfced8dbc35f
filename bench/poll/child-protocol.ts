// What the bench parent and a burst child say to each other. The config travels in an environment
// variable; reports come back over the IPC channel, so stdout carries only the followed messages.

/** The environment variable that carries a child's ChildConfig as JSON. */
export const CHILD_ENV = 'AGENTS_BENCH_POLL_CHILD';

/**
 * Which poller a child runs. `baseline` only starts, imports the same modules and reports; `one-request`
 * also sends one list request and pauses, so that the cost of any HTTP at all is visible apart.
 */
export type ChildMode = 'baseline' | 'one-request' | 'ours' | 'naive';

/** Everything a burst child needs to follow one thread. */
export interface ChildConfig {
  mode: ChildMode;
  baseUrl: string;
  apiKey: string;
  sessionId: string;
  threadId: string;
  /** The thread's messages href from the create response: where the naive loop starts. */
  threadHref: string;
  /** The child gives up following after this long (ms). */
  deadlineMs: number;
}

/** A child's final report. */
export interface ChildResult {
  kind: 'result';
  /** List requests of the poller (the follower's own count, or the naive loop's). */
  requests: number;
  /** Requests of the child's ApiClient, retries included. */
  clientRequests: number;
  /** Peak resident set size of the child (process.resourceUsage().maxRSS), in KiB. */
  maxRssKb: number;
  sawFinal: boolean;
  /** Epoch ms of the first message yielded, and of the final one. */
  firstAtMs?: number;
  finalAtMs?: number;
  timedOut: boolean;
}

/** `polled`: the first list response has come back (the parent stores the burst after it). */
export type ChildReport = { kind: 'polled' } | ChildResult;
