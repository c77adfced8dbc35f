// A conversation's backlog, then what lands after it, as `tail` and a resumed chat show it.
import type { ApiClient, CallOptions, ThreadTarget } from '../api/client.js';
import type { Message, MessageType } from '../api/types.js';
import { ConversationStream, readConversation, type Entry, type LandedEntry } from '../conversation/model.js';
import { latestTurn, type LatestTurn } from '../conversation/turn-state.js';
import { Follower, type FollowOptions } from '../poll/follow.js';
import { readMessages } from './read-session.js';

/** Which of the conversation's last entries a backlog shows. */
export interface BacklogQuery {
  types: MessageType[];
  /** The last this many of the agent's entries; undefined for no count (all since `sinceMs`). */
  lines?: number;
  /** Only entries stored at or after this time (epoch ms), by `created_at`. */
  sinceMs?: number;
  /** The user's prompts among them too (a terminal; they do not count towards `lines`). */
  prompts: boolean;
}

export interface ConversationBacklog {
  /** Every message read, oldest first: what a follow carries on after. */
  read: Message[];
  /** The entries to show, oldest first. */
  entries: Entry[];
  latest: LatestTurn | undefined;
}

/** Messages a backlog of `lines` entries reads: the service's copies, notices and prompts are not shown. */
const READ_PER_LINE = 4;

/** Pure: the entries a backlog shows of a conversation read (oldest first). */
export function backlogEntries(read: readonly Message[], q: BacklogQuery): Entry[] {
  const since = q.sinceMs;
  const entries = readConversation(read).entries.filter(
    (e) => since === undefined || !(Date.parse(e.message.created_at) < since),
  );
  const agent = entries.flatMap((e, i) => (e.kind === 'user' ? [] : [i]));
  const count = q.lines ?? agent.length;
  if (count <= 0) return [];
  const from = agent.length > count ? agent[agent.length - count]! : 0;
  return entries.slice(from).filter((e) => q.prompts || e.kind !== 'user');
}

export async function readBacklog(
  client: ApiClient,
  target: ThreadTarget,
  q: BacklogQuery,
  o: CallOptions,
): Promise<ConversationBacklog> {
  // At least one is read even with -n 0, to know where "new" starts and which turn is the latest. With a time
  // alone, the read grows until it covers it: the messages stored since then, and one older to prove it.
  const since = q.lines === undefined ? q.sinceMs : undefined;
  for (let max = since === undefined ? Math.max(1, (q.lines ?? 0) * READ_PER_LINE) : 100; ; max *= 4) {
    const { messages: read } = await readMessages(client, target, q.types, max, o);
    // Oldest first by created_at: its first one older than `since`, or fewer than asked, covers it.
    if (since === undefined || read.length < max || Date.parse(read[0]?.created_at ?? '') < since) {
      return { read, entries: backlogEntries(read, q), latest: latestTurn(read) };
    }
  }
}

export interface ConversationFollowOptions extends Omit<FollowOptions, 'after'> {
  /** The messages shown already (a backlog's `read`): the follow carries on after them. */
  shown: readonly Message[];
  /** See ConversationStream. */
  policy: 'hold' | 'show';
}

/** A follow of a conversation after its backlog, a poll at a time. Iterate `polls` once. */
export class ConversationFollow {
  private readonly follower: Follower;
  private readonly stream: ConversationStream;

  constructor(o: ConversationFollowOptions) {
    this.follower = new Follower({ ...o, after: o.shown });
    // Primed with what was shown, so that a copy of a final reply shown there is not shown again.
    this.stream = new ConversationStream(o.policy);
    this.stream.prime(o.shown);
  }

  /** Polls now and quickly (a turn has just started). */
  wake(): void {
    this.follower.wake();
  }

  /** The entries each poll brings (possibly none: a poll that found nothing), then whatever was held back. */
  async *polls(): AsyncGenerator<LandedEntry[]> {
    for await (const batch of this.follower.batches()) yield this.stream.push(batch);
    const rest = this.stream.flush();
    if (rest.length > 0) yield rest;
  }
}
