// Merges message lists (older deployments filter on one `role` at a time) by created_at. Messages stored in
// one instant tie on every timestamp: only the server's order tells which came first, so ties keep it.
import type { Message } from '../api/types.js';
import type { Conversation } from './model.js';

/** created_at in ms; a time that does not parse sorts first rather than making the order inconsistent. */
function createdMs(m: Message): number {
  const t = Date.parse(m.created_at);
  return Number.isFinite(t) ? t : Number.NEGATIVE_INFINITY;
}

/** Pure: the union of the lists (each oldest first), oldest first, each message once (by id). Ties keep the
 * first list's first, except that a thread's prompt from one list goes before its replies from another. */
export function mergeOldestFirst(...lists: readonly (readonly Message[])[]): Message[] {
  const listOf = new Map<string, number>();
  const all: Message[] = [];
  lists.forEach((list, i) => {
    for (const m of list) {
      if (listOf.has(m.id)) continue;
      listOf.set(m.id, i);
      all.push(m);
    }
  });
  // Array#sort is stable: ties stay in the order of the concatenation, which is the server's.
  const ties = new Map<number, Message[]>();
  for (const m of all.sort((a, b) => createdMs(a) - createdMs(b))) {
    if (!ties.has(createdMs(m))) ties.set(createdMs(m), []);
    ties.get(createdMs(m))!.push(m);
  }
  return [...ties.values()].flatMap((tie) => promptsFirst(tie, listOf));
}

/** Pure: messages that tie, each prompt after a reply of its thread from another list moved before it. */
function promptsFirst(group: Message[], listOf: ReadonlyMap<string, number>): Message[] {
  if (group.length < 2) return group;
  const out = [...group];
  for (const u of group) {
    if (u.role !== 'user' || u.chat_thread_id === null) continue;
    const at = out.indexOf(u);
    const reply = (m: Message) => m.chat_thread_id === u.chat_thread_id && m.role !== 'user';
    const misplaced = out.slice(0, at).some((m) => reply(m) && listOf.get(m.id) !== listOf.get(u.id));
    if (!misplaced) continue;
    const first = out.findIndex(reply);
    out.splice(at, 1);
    out.splice(first, 0, u);
  }
  return out;
}

/** Pure: every assistant message of a conversation read whole, oldest first: what a follow has seen. */
export function assistantMessagesOf(c: Conversation): Message[] {
  return mergeOldestFirst(
    c.entries.map((e) => e.message).filter((m) => m.role === 'assistant'),
    c.notices.map((e) => e.message),
    c.duplicates,
  );
}
