// Merges message streams that are each sorted by created_at into one sorted stream, holding one
// message per stream at a time (show reads user and assistant messages as two lists: `role` takes one value).
import type { Message } from '../api/types.js';

/** Pure ordering of two messages by created_at (then id, for a stable order on ties). */
export function compareCreated(a: Message, b: Message): number {
  const d = Date.parse(a.created_at) - Date.parse(b.created_at);
  if (d !== 0 && Number.isFinite(d)) return d;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export async function* mergeByCreated(
  streams: AsyncIterable<Message>[],
  direction: 'asc' | 'desc',
): AsyncGenerator<Message> {
  const sign = direction === 'asc' ? 1 : -1;
  const iterators = streams.map((s) => s[Symbol.asyncIterator]());
  const heads = await Promise.all(iterators.map((it) => it.next()));
  try {
    for (;;) {
      let pick = -1;
      heads.forEach((h, i) => {
        if (h.done) return;
        const current = heads[pick];
        if (pick < 0 || (current && !current.done && sign * compareCreated(h.value, current.value) < 0))
          pick = i;
      });
      if (pick < 0) return;
      const head = heads[pick];
      const it = iterators[pick];
      if (!head || head.done || !it) return;
      yield head.value;
      heads[pick] = await it.next();
    }
  } finally {
    for (const it of iterators) await it.return?.();
  }
}
