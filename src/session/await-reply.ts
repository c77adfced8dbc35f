// --wait and --follow for create and send: drive the poller for one thread, print what lands, and turn a
// deadline or Ctrl-C into the contract's 124 / 130 with the session id and the command that resumes.
import { writeFile } from 'node:fs/promises';
import type { Context } from '../context.js';
import type { Message } from '../api/types.js';
import { CliError, ExitCode } from '../errors.js';
import {
  Follower,
  MAX_FAILED_POLLS,
  firstMessage,
  type FollowOptions,
  type MessageLister,
} from '../poll/follow.js';
import { line, renderMessage, serviceText } from '../output/render.js';
import { startSpinner } from '../output/spinner.js';
import { createStyle } from '../output/style.js';
import { formatDuration } from '../util/duration.js';

export interface AwaitOptions {
  ctx: Context;
  client: MessageLister;
  sessionId: string;
  threadId: string;
  mode: 'wait' | 'follow';
  timeoutMs?: number;
  /** --wait --output FILE: the final text is also written there. */
  outputFile?: string;
  /** What the spinner says we are waiting for. */
  waitingFor: string;
}

/** The command that picks the wait up again. */
export function resumeCommand(sessionId: string, threadId: string | undefined): string {
  return `agents tail ${sessionId}${threadId ? ` --thread ${threadId}` : ''} --until-final`;
}

/**
 * Maps an error thrown while waiting: the deadline becomes 124 and an interrupt 130, both naming the
 * session and how to resume; anything else passes through.
 */
export function waitError(
  err: unknown,
  why: { deadline: AbortSignal; interrupt: AbortSignal; timeoutMs?: number },
  sessionId: string,
  threadId: string | undefined,
): unknown {
  const hint = `the session goes on; resume with: ${resumeCommand(sessionId, threadId)}`;
  if (why.interrupt.aborted) {
    return new CliError(`interrupted while waiting on session ${sessionId}`, {
      exitCode: ExitCode.INTERRUPTED,
      hint,
    });
  }
  if (why.deadline.aborted) {
    const after = why.timeoutMs === undefined ? '' : ` after ${formatDuration(why.timeoutMs)}`;
    return new CliError(`timed out${after} waiting on session ${sessionId}`, {
      exitCode: ExitCode.TIMEOUT,
      hint,
    });
  }
  // The service kept failing: the session may still go on, so say which one and how to pick it up.
  if (err instanceof CliError && err.exitCode === ExitCode.FAILURE) {
    return new CliError(`${err.message} (gave up waiting on session ${sessionId})`, {
      exitCode: err.exitCode,
      hint,
      cause: err,
    });
  }
  return err;
}

/**
 * How a wait rides out a service that keeps failing (each failed poll has already used up the client's
 * retries, about a minute). With --timeout the user has bounded the wait: keep trying until the deadline,
 * as a CI job blocked on a twenty-minute turn should survive a service restart. Without it, give up after
 * MAX_FAILED_POLLS failed polls in a row rather than wait forever. Each failure is reported on stderr.
 */
export function outagePolicy(
  ctx: Context,
  timeoutMs: number | undefined,
  report: (text: string) => void = (text) => ctx.log.warn(text),
): Pick<FollowOptions, 'maxFailedPolls' | 'onTransientError'> {
  return {
    maxFailedPolls: timeoutMs === undefined ? MAX_FAILED_POLLS : Number.POSITIVE_INFINITY,
    onTransientError: (err, n) => {
      const what = err instanceof Error ? err.message : String(err);
      const left = timeoutMs === undefined ? ` (attempt ${n} of ${MAX_FAILED_POLLS})` : '';
      report(`the service is failing: ${what}; still waiting${left}`);
    },
  };
}

/** A signal that aborts on Ctrl-C or when the optional deadline passes. Call `dispose` when done. */
export function deadlineSignal(interrupt: AbortSignal, timeoutMs: number | undefined) {
  const deadline = new AbortController();
  const timer = timeoutMs === undefined ? undefined : setTimeout(() => deadline.abort('TIMEOUT'), timeoutMs);
  return {
    signal: AbortSignal.any([interrupt, deadline.signal]),
    why: { deadline: deadline.signal, interrupt, timeoutMs },
    dispose: () => clearTimeout(timer),
  };
}

/** Waits (or follows) and prints; returns the final message. */
export async function awaitReply(o: AwaitOptions): Promise<Message> {
  const { ctx } = o;
  const d = deadlineSignal(ctx.signal, o.timeoutMs);
  const json = ctx.globals.json === true;
  const mode = {
    tty: ctx.caps.stdoutIsTTY,
    style: await createStyle(ctx.caps.color && ctx.caps.stdoutIsTTY),
  };
  const spinner = await startSpinner(ctx, `Waiting for ${o.waitingFor}…`);
  const started = Date.now();
  // The latest failure the follower rode out, shown beside the elapsed time while the spinner runs.
  let trouble = '';
  const follower = new Follower({
    client: o.client,
    target: { sessionId: o.sessionId, threadId: o.threadId },
    types: o.mode === 'wait' ? ['final_message'] : ['message', 'final_message'],
    untilFinal: true,
    signal: d.signal,
    ...outagePolicy(ctx, o.timeoutMs, (text) => {
      // A line written under a running spinner would be wiped by its next frame: show it in the spinner.
      if (spinner.active) trouble = ` (at ${formatDuration(Date.now() - started)}: ${text})`;
      else ctx.log.warn(text);
    }),
  });
  const tick = setInterval(
    () => spinner.text(`Waiting for ${o.waitingFor}… ${formatDuration(Date.now() - started)}${trouble}`),
    1000,
  );
  try {
    if (o.mode === 'wait') {
      const final = await firstMessage(follower);
      spinner.stop();
      if (o.outputFile !== undefined) await writeFile(o.outputFile, final.message);
      if (json) ctx.out(`${JSON.stringify(final)}\n`);
      else ctx.out(mode.tty ? line(serviceText(final.message, mode)) : final.message);
      return final;
    }
    let final: Message | undefined;
    for await (const m of follower) {
      spinner.stop();
      if (json) ctx.out(`${JSON.stringify(m)}\n`);
      else ctx.out(mode.tty ? renderMessage(m, mode) : line(m.message));
      if (m.type === 'final_message') final = m;
    }
    if (final === undefined) throw new CliError('the follow ended before the final message');
    return final;
  } catch (err) {
    throw waitError(err, d.why, o.sessionId, o.threadId);
  } finally {
    clearInterval(tick);
    spinner.stop();
    d.dispose();
  }
}
