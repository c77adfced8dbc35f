// Merges message lists that are each sorted by created_at into one sorted list (the service filters on one
// `role` at a time in older deployments, so a conversation arrives as two lists).
import type { Message } from '../api/types.js';

/** Pure ordering of two messages by created_at (then id, for a stable order on ties). */
export function compareCreated(a: Message, b: Message): number {
  const d = Date.parse(a.created_at) - Date.parse(b.created_at);
  if (d !== 0 && Number.isFinite(d)) return d;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** Pure: the union of the lists, oldest first, each message once (by id). */
export function mergeOldestFirst(...lists: readonly (readonly Message[])[]): Message[] {
  const byId = new Map<string, Message>();
  for (const list of lists) for (const m of list) if (!byId.has(m.id)) byId.set(m.id, m);
  return [...byId.values()].sort(compareCreated);
}
