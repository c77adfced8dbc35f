// agents send: a follow-up that starts a new thread and interrupts the turn in progress.
import type { Context } from '../context.js';
import type { SendMessageBody } from '../api/types.js';
import { CliError, ExitCode } from '../errors.js';
import { readMessage } from '../input/message.js';
import { askMessage, confirm } from '../input/prompts.js';
import { profileFromFlags } from '../session/agent-choice.js';
import { clientFor, settingsFor } from '../session/connect.js';
import { awaitReply } from '../session/await-reply.js';
import { resolveSessionRef } from '../session/resolve-ref.js';
import { writeLastSession } from '../state/last-session.js';
import { renderNextSteps } from '../output/render.js';
import { createStyle } from '../output/style.js';
import { checkReplyFlags, type ReplyFlags } from './create.js';
import type { ApiClient } from '../api/client.js';

export interface SendFlags extends ReplyFlags {
  agentProfile?: string;
  agentProfileFile?: string;
  yes?: boolean;
}

/** Whether the session's latest turn is still running: its thread has no final message yet. */
async function turnInProgress(client: ApiClient, sessionId: string, signal: AbortSignal): Promise<boolean> {
  const latest = await client.listMessages(
    { sessionId },
    { role: 'user', type: ['message'], direction: 'desc', limit: 1 },
    { signal },
  );
  const thread = latest.items[0]?.chat_thread_id;
  if (!thread) return false;
  const final = await client.listMessages(
    { sessionId, threadId: thread },
    { role: 'assistant', type: ['final_message'], limit: 1 },
    { signal },
  );
  return final.items.length === 0;
}

export async function runSend(ctx: Context, ref: string, words: string[], flags: SendFlags): Promise<void> {
  await checkReplyFlags(flags);
  const settings = settingsFor(ctx);
  const session = resolveSessionRef(ref, settings.profile, ctx.env);
  const client = clientFor(ctx, settings);
  const profile = await profileFromFlags(flags);
  const message = await readMessage({
    args: words,
    file: flags.file,
    stdin: ctx.stdin,
    interactive: ctx.caps.interactive,
    prompt: () => askMessage(ctx.signal),
  });

  // A person at a terminal is told before their message cuts a running turn short; scripts never are.
  if (ctx.caps.interactive && !flags.yes && (await turnInProgress(client, session.id, ctx.signal))) {
    const go = await confirm(
      'The agent is still working on the previous message. Interrupt it?',
      false,
      ctx.signal,
    );
    if (!go)
      throw new CliError('not sent', {
        exitCode: ExitCode.USAGE,
        hint: 'pass --yes to interrupt without asking',
      });
  }

  const body: SendMessageBody = { message };
  if (flags.artifact?.length) body.artifact_ids = flags.artifact;
  if (profile !== undefined) body.profile = profile;
  const sent = await client.sendMessage(session.id, body, { signal: ctx.signal });
  const threadId = sent.chat_thread_id ?? undefined;
  writeLastSession(settings.profile, { id: session.id, threadId }, ctx.env);
  const style = await createStyle(ctx.caps.color);

  if (!flags.wait && !flags.follow) {
    ctx.out(ctx.globals.json ? `${JSON.stringify(sent)}\n` : `${threadId ?? ''}\n`);
    if (ctx.caps.stderrIsTTY) ctx.log.hint(renderNextSteps(session.id, style));
    return;
  }
  if (threadId === undefined) {
    throw new CliError(`the service returned no thread for the follow-up on session ${session.id}`, {
      hint: `follow it with: agents tail ${session.id}`,
    });
  }
  await awaitReply({
    ctx,
    client,
    sessionId: session.id,
    threadId,
    mode: flags.wait ? 'wait' : 'follow',
    timeoutMs: flags.timeout,
    outputFile: flags.output,
    waitingFor: 'the reply',
  });
}
