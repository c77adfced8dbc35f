// agents create: a new session with its first message; optionally wait for or follow the reply.
import { access, constants, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { Context } from '../context.js';
import type { CreateSessionBody } from '../api/types.js';
import { CliError, UsageError } from '../errors.js';
import { readMessage } from '../input/message.js';
import { askMessage, chooseAgent } from '../input/prompts.js';
import { selectAgent, type AgentFlags } from '../session/agent-choice.js';
import { clientFor, settingsFor } from '../session/connect.js';
import { awaitReply } from '../session/await-reply.js';
import { writeLastSession } from '../state/last-session.js';
import { renderCreated, renderNextSteps } from '../output/render.js';
import { createStyle } from '../output/style.js';

/** The options of create (and, minus the agent ones, of send). */
export interface ReplyFlags {
  artifact?: string[];
  wait?: boolean;
  follow?: boolean;
  timeout?: number;
  output?: string;
  file?: string;
}

export interface CreateFlags extends AgentFlags, ReplyFlags {
  private?: boolean;
}

/** Checks the combinations of --wait, --follow, --timeout and --output before anything is read or sent. */
export async function checkReplyFlags(flags: ReplyFlags): Promise<void> {
  if (flags.wait && flags.follow) throw new UsageError('choose one of --wait and --follow');
  if (flags.output !== undefined && !flags.wait) throw new UsageError('--output needs --wait');
  if (flags.timeout !== undefined && !flags.wait && !flags.follow) {
    throw new UsageError('--timeout needs --wait or --follow');
  }
  if (flags.output !== undefined) {
    // A path that can only be a directory is found now, not after the session was created.
    const isDir = await stat(flags.output).then(
      (st) => st.isDirectory(),
      () => false,
    );
    if (flags.output === '' || /[/\\]$/.test(flags.output) || isDir) {
      throw new UsageError(`--output needs a file name, not a directory: ${JSON.stringify(flags.output)}`);
    }
    const dir = dirname(resolve(flags.output));
    try {
      await access(dir, constants.W_OK);
    } catch {
      throw new UsageError(`cannot write --output ${flags.output}: ${dir} is missing or not writable`);
    }
  }
}

export async function runCreate(ctx: Context, words: string[], flags: CreateFlags): Promise<void> {
  await checkReplyFlags(flags);
  const settings = settingsFor(ctx);
  const client = clientFor(ctx, settings);
  const agent = await selectAgent(
    flags,
    settings.agent,
    ctx.caps.interactive ? () => chooseAgent(ctx.signal) : undefined,
  );
  const message = await readMessage({
    args: words,
    file: flags.file,
    stdin: ctx.stdin,
    interactive: ctx.caps.interactive,
    prompt: () => askMessage(ctx.signal),
  });

  const body: CreateSessionBody = { message, ...agent };
  if (flags.private) body.is_private = true;
  if (flags.artifact?.length) body.artifact_ids = flags.artifact;
  const session = await client.createSession(body, { signal: ctx.signal });
  const threadId = session.thread_id ?? undefined;
  writeLastSession(settings.profile, { id: session.id, threadId }, ctx.env);

  const style = await createStyle(ctx.caps.color);
  if (ctx.caps.stderrIsTTY) ctx.log.info(renderCreated(session, style));

  if (!flags.wait && !flags.follow) {
    ctx.out(ctx.globals.json ? `${JSON.stringify(session)}\n` : `${session.id}\n`);
    if (ctx.caps.stderrIsTTY) ctx.log.hint(renderNextSteps(session.id, style));
    return;
  }
  if (threadId === undefined) {
    throw new CliError(`the service returned no thread for session ${session.id}`, {
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
    waitingFor: agent.agent_name ?? 'the agent',
  });
  if (ctx.caps.stderrIsTTY) ctx.log.hint(renderNextSteps(session.id, style));
}
