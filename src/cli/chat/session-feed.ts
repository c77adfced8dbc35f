// What `agents chat` polls: the whole session (every turn, tool calls included), from the messages
// already shown, through the same conversation model as `tail`. An outage is ridden out with a warning,
// as a --wait with --timeout does; a failure that polling again cannot cure ends the chat.
import type { Context } from '../run/context.js';
import type { ApiClient } from '../../core/api/client.js';
import { isHttpError } from '../../core/api/errors.js';
import type { Message } from '../../core/api/types.js';
import { CliError, fromHttpError } from '../../core/errors/cli-error.js';
import type { Entry } from '../../core/conversation/model.js';
import { ConversationFollow } from '../../core/sessions/follow-conversation.js';
import { reason } from './commands.js';

export interface FeedOptions {
  ctx: Context;
  client: ApiClient;
  sessionId: string;
  /** Messages shown already (a resumed chat's backlog). */
  after: readonly Message[];
  onEntry(e: Entry & { repeats?: boolean }): void;
  /** The service is failing (a line for the status line), or answers again (undefined). */
  onWarning(warning: string | undefined): void;
  onFailure(error: unknown): void;
}

export interface SessionFollow {
  /** A turn has just started: poll now, and quickly. */
  wake(): void;
  stop(): void;
}

/** A failure the follow cannot ride out (a revoked key, a deleted session), naming the session. */
function followError(err: unknown, sessionId: string): unknown {
  if (!isHttpError(err)) return err;
  const mapped = fromHttpError(err);
  return new CliError(`${mapped.message} (while following session ${sessionId})`, {
    exitCode: mapped.exitCode,
    hint: mapped.hint,
    cause: err,
  });
}

export function followSession(o: FeedOptions): SessionFollow {
  const stop = new AbortController();
  const signal = AbortSignal.any([o.ctx.signal, stop.signal]);
  const warn = (err: unknown) => o.onWarning(`${reason(err).text}; still trying`);
  const follow = new ConversationFollow({
    client: o.client,
    target: { sessionId: o.sessionId },
    // Every message type: a chat shows tool calls as they happen.
    types: ['message', 'final_message', 'tool_call'],
    signal,
    schedule: o.ctx.schedule,
    shown: o.after,
    policy: 'show',
    maxFailedPolls: Number.POSITIVE_INFINITY,
    onTransientError: warn,
    // The client rides out an outage inside one poll (up to a minute): the status line says so meanwhile.
    onRetrying: warn,
  });
  void (async () => {
    try {
      for await (const entries of follow.polls()) {
        if (stop.signal.aborted) return;
        o.onWarning(undefined);
        for (const e of entries) o.onEntry(e);
      }
    } catch (err) {
      if (!signal.aborted) o.onFailure(followError(err, o.sessionId));
    }
  })();
  return { wake: () => follow.wake(), stop: () => stop.abort('closed') };
}
