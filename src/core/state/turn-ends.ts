// Records the end of a turn wherever the API client lists one (its onListed hook), so that `agents ls` shows
// the state "as last seen here" without --refresh.
import type { Message } from '../api/types.js';
import type { ThreadTarget } from '../api/urls.js';
import { isFinalReply } from '../conversation/turn-state.js';
import { knownSessions, withSessionFacts } from './known-sessions.js';
import type { History } from './history.js';

/** What the client's onListed is told: a page's messages of the session asked for. */
export type TurnEnds = (target: ThreadTarget, messages: readonly Message[]) => Promise<void>;

/** The client's onListed for a history: a final reply on a known session's latest recorded thread marks it
 * finished (one on an older thread says nothing: a follow-up may run). Nothing is read unless a page holds a
 * final, nothing written unless the record changes; a failed write loses the fact, never the reading. */
export function recordTurnEnds(h: History): TurnEnds {
  const recorded = new Set<string>();
  return async (target, messages) => {
    const id = target.sessionId.toLowerCase();
    const threads = new Set(messages.filter(isFinalReply).map((m) => (m.chat_thread_id ?? '').toLowerCase()));
    const ends = (data: Record<string, unknown>) => {
      const known = knownSessions(data, h).find((s) => s.id === id);
      const running = known?.state === undefined || known.state === 'working';
      return known?.threadId !== undefined && running && threads.has(known.threadId);
    };
    const fresh = [...threads].filter((t) => !recorded.has(`${id} ${t}`));
    if (fresh.length === 0) return;
    try {
      if (ends(await h.state.read())) {
        await h.state.update((data) =>
          ends(data) ? withSessionFacts(data, h, [{ id, state: 'finished' }]) : data,
        );
      }
      // Seen once is enough for this run: a later page repeating the final changes nothing.
      for (const t of fresh) recorded.add(`${id} ${t}`);
    } catch {
      // A convenience lost (the state file cannot be written): the reading goes on.
    }
  };
}

/** The recorder of each library instance given a history (fromConfig, mcp, acp), out of the package's API. */
const recorders = new WeakMap<object, TurnEnds>();

/** Has `owner` (an Agents) record each turn's end it sees in `history`. */
export function recordIn(owner: object, history: History): void {
  recorders.set(owner, recordTurnEnds(history));
}

export function recorderOf(owner: object): TurnEnds | undefined {
  return recorders.get(owner);
}
