// What `agents chat <session>` shows before the prompt (the last turns, read as `show` reads them) and what
// it carries on from: whether the latest turn runs, the last reply, the messages the follow starts after.
import type { Context } from '../run/context.js';
import {
  assistantMessagesOf,
  type Conversation,
  groupTurns,
  latestTurn,
  type Message,
  readSession,
} from '../../core/index.js';

/** Messages read for the backlog: one request (the limit counts what is shown; show reads twice as many). */
const BACKLOG_LIMIT = 40;

/** The conversation cut to its last `turns` turns (and the notices among them). */
export function lastTurns(c: Conversation, turns: number): { conversation: Conversation; cut: boolean } {
  const grouped = groupTurns(c.entries.map((e) => e.message));
  const kept = new Set(grouped.slice(Math.max(0, grouped.length - turns)).flatMap((t) => t.messages));
  const entries = c.entries.filter((e) => kept.has(e.message));
  const oldest = Date.parse(entries[0]?.message.created_at ?? '');
  const notices = c.notices.filter((n) => !(Date.parse(n.message.created_at) < oldest));
  return {
    conversation: { entries, notices, duplicates: c.duplicates },
    cut: entries.length < c.entries.length,
  };
}

/** The latest turn when it has no final reply yet (decided by conversation/turn-state.ts). */
export function runningTurn(c: Conversation): { thread: string; since: number } | undefined {
  const turn = latestTurn(c.entries.map((e) => e.message));
  if (turn?.state !== 'working') return undefined;
  return { thread: turn.thread, since: Date.parse(turn.start.created_at) || Date.now() };
}

/** The reply /copy and /save take: the newest final, else the newest assistant message. */
export function latestReply(c: Conversation): Message | undefined {
  const assistant = c.entries.filter((e) => e.kind === 'final' || e.kind === 'reply');
  return (assistant.findLast((e) => e.kind === 'final') ?? assistant.at(-1))?.message;
}

export async function loadBacklog(ctx: Pick<Context, 'client' | 'signal'>, sessionId: string, turns: number) {
  const read = { tools: true, limit: BACKLOG_LIMIT };
  const item = await readSession(await ctx.client(), sessionId, read, { signal: ctx.signal });
  const whole = item.conversation;
  const { conversation, cut } = lastTurns(whole, turns);
  return {
    session: item.session,
    /** The last turns, as show renders them. */
    conversation,
    /** The session's threads in order (turn numbers). */
    threads: item.threads,
    /** Older messages were left out. */
    truncated: cut || item.truncatedTo !== undefined,
    /** Every assistant message read (notices and the service's copies of finals too), oldest first. */
    seen: assistantMessagesOf(whole),
    /** The latest turn, when it has no final reply yet. */
    running: runningTurn(whole),
    /** The newest final reply read, else the newest reply. */
    lastReply: latestReply(whole),
  };
}

export type Backlog = Awaited<ReturnType<typeof loadBacklog>>;
