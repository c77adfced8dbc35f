// A page of List session messages: its public types, its contract and the client's check of an answer.
import * as v from 'valibot';
import { MESSAGE, ofSession, type ListedMessage, type Message } from './message.js';
import { LINK } from './session.js';
import { checked, field, kept, record, without } from './fields.js';

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

export const MESSAGE_PAGE = record(
  'message list',
  {
    items: field(v.array(MESSAGE.contract), without('items'), v.array(MESSAGE.reading)),
    // Paging ends by these counts: a non-number would page (or poll) forever.
    meta: field(
      v.object({ total: count, page: count, limit: count, total_pages: count }),
      without('numeric meta.total and meta.total_pages'),
      v.pipe(
        v.custom((m) => typeof m === 'object' && m !== null, without('meta')('message list', '')),
        v.looseObject({ total: v.number(), total_pages: v.number() }),
      ),
    ),
    _links: kept(v.optional(v.object({ self: v.optional(LINK), new_messages: v.optional(LINK) }))),
  },
  'items',
);

/** A page as the client hands it on: the contract's items may leave chat_id out, the client fills it in (ofSession). */
export type MessagePage = Pick<v.InferOutput<typeof MESSAGE_PAGE.contract>, 'meta' | '_links'> & { items: Message[] };

/** One page of a message list of session `sessionId`, each message's chat_id filled in (ofSession). */
export function asMessagePage(value: unknown, sessionId: string): MessagePage {
  const page = checked<{ items: ListedMessage[] }>(MESSAGE_PAGE, value);
  page.items.forEach((m) => ofSession(m, sessionId));
  return page as MessagePage;
}
