// performance.now()'s source without the global `performance`, whose first read loads perf_hooks and eight
// more of Node's modules: about a millisecond of every run that sends a request.

/** Milliseconds since an arbitrary point, never going back: for durations and deadlines, not dates. */
export function monotonicMs(): number {
  return Number(process.hrtime.bigint()) / 1e6;
}
