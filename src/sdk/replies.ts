// Many waits at once, each result handed over as it comes: the order they end, not the order asked.
import type { AgentsError } from '../core/errors/agents-error.js';
import { toCliError } from '../core/errors/cli-error.js';
import type { Reply } from './types.js';

/** How one wait of {@link Agents.replies} ended: its reply, or the error it ended with. */
export type Settled<R = Reply> =
  | { ok: true; sessionId: string; threadId: string | undefined; reply: R }
  | { ok: false; sessionId: string; threadId: string | undefined; error: AgentsError };

/** Starts `wait` on each ref and yields each outcome as it settles. */
export async function* settled<R>(
  refs: readonly { sessionId: string; threadId: string | undefined }[],
  wait: (ref: { sessionId: string; threadId: string | undefined }) => Promise<R>,
): AsyncGenerator<Settled<R>, void, undefined> {
  const pending = new Map<number, Promise<[number, Settled<R>]>>();
  refs.forEach((ref, i) => {
    const ids = { sessionId: ref.sessionId, threadId: ref.threadId };
    pending.set(
      i,
      wait(ref).then(
        (reply): [number, Settled<R>] => [i, { ok: true, ...ids, reply }],
        (error: unknown): [number, Settled<R>] => [i, { ok: false, ...ids, error: toCliError(error) }],
      ),
    );
  });
  while (pending.size > 0) {
    const [i, outcome] = await Promise.race(pending.values());
    pending.delete(i);
    yield outcome;
  }
}
