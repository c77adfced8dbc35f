// The one way a test waits: for a condition, never for a time. The deadline only keeps a broken feature
// from hanging the suite; it is long, because a loaded machine is slow, never wrong.

const DEFAULT_DEADLINE_MS = 60_000;

/** Resolves with `probe`'s first truthy value, checking every 5 ms; rejects after `ms`. */
export async function until<T>(
  probe: () => T | Promise<T>,
  ms = DEFAULT_DEADLINE_MS,
): Promise<Exclude<T, undefined | null | false | 0 | ''>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value as Exclude<T, undefined | null | false | 0 | ''>;
    if (Date.now() > deadline) throw new Error(`condition not met within ${ms} ms: ${probe.toString()}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}
