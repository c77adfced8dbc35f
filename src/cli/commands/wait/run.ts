// agents wait: exit 0 when all are done, 124 on --timeout (naming what is pending), else the first error's.
import { mkdir, access, constants, stat } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { Context } from '../../run/context.js';
import {
  anySignal,
  type ApiClient,
  CliError,
  ExitCode,
  FanOut,
  groupOf,
  type InStream,
  notAWaitRef,
  type OutputSchema,
  parseWaitRef,
  resumeWait,
  startDeadline,
  UsageError,
  type WaitRef,
} from '../../../core/index.js';
import type { Item } from '../../output/items.js';
import { errorMessage } from '../../../util/text.js';

export type WaitFlags = { timeout?: number; outputDir?: string; schema?: OutputSchema; notify?: boolean };

/** --output-dir: made if missing, and writable, before anything is read or sent. */
async function prepareOutputDir(dir: string): Promise<void> {
  const st = await stat(dir).catch(() => undefined);
  if (st?.isDirectory() === false)
    throw new UsageError(`--output-dir needs a directory, not a file: ${JSON.stringify(dir)}`);
  try {
    await mkdir(dir, { recursive: true });
    await access(dir, constants.W_OK);
  } catch {
    throw new UsageError(`cannot write --output-dir ${dir}: it cannot be made or is not writable`);
  }
}

/** The waits of `agents wait`, and of `create --attempts --wait`; titles are fetched only to be shown. */
export function waitFanOut(ctx: Context, client: ApiClient, signal: AbortSignal, flags: WaitFlags): FanOut {
  const titles = ctx.caps.stdoutIsTTY || ctx.caps.spinner;
  return new FanOut({ ...flags, work: ctx, client, signal, bounded: flags.timeout !== undefined, titles });
}

/** Waits on one session of a group, by id (on its thread when known). */
export function addMember(fan: FanOut, id: string, origin: string, threadId?: string | null): void {
  const ref = { session: { kind: 'id', id } as const, text: id };
  fan.add(threadId ? { ...ref, threadId } : ref, origin);
}

/** Waits on `ref`, or on each session of the group it names (`create --attempts`: its id, or `last`). */
async function addRef(ctx: Context, fan: FanOut, ref: WaitRef, origin: string): Promise<void> {
  const group = ref.threadId === undefined ? await groupOf(ref.session, await ctx.history()) : undefined;
  if (group === undefined) return fan.add(ref, origin);
  for (const s of group.sessions) addMember(fan, s.id, `${origin} (attempt ${s.attempt})`, s.threadId);
}

async function feedLines(ctx: Context, fan: FanOut, input: InStream, signal: AbortSignal): Promise<void> {
  const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY, terminal: false, signal });
  let n = 0;
  for await (const line of lines) {
    n += 1;
    const text = line.trim();
    if (text === '') continue;
    const ref = parseWaitRef(text);
    if (ref === undefined) fan.reject(`standard input, line ${n}`, notAWaitRef(text));
    else await addRef(ctx, fan, ref, `standard input, line ${n}`);
  }
}

export async function* wait(ctx: Context, refs: WaitRef[], flags: WaitFlags): AsyncGenerator<Item> {
  const fromStdin = refs.length === 0;
  if (fromStdin && ctx.io.stdin.isTTY) {
    throw new UsageError(
      'give the sessions to wait on',
      'as arguments (ids, addresses, "last", or <session>/<thread> as send prints it), or one per line on standard input',
    );
  }
  if (flags.outputDir !== undefined) await prepareOutputDir(flags.outputDir);
  const client = await ctx.client();
  // --timeout bounds everything from here: reading standard input, finding each session's latest turn, polling.
  const deadline = startDeadline(ctx.signal, flags.timeout);
  const left = new AbortController();
  const signal = anySignal([deadline.signal, left.signal]);
  const fan = waitFanOut(ctx, client, signal, flags);
  let stdinOpen = fromStdin;
  try {
    if (fromStdin) {
      feedLines(ctx, fan, ctx.io.stdin, signal)
        .catch((err: unknown) => {
          const why = errorMessage(err);
          fan.reject('standard input', new UsageError(`could not be read: ${why}`));
        })
        .finally(() => {
          stdinOpen = signal.aborted;
          fan.endFeeding();
        });
    } else {
      for (const [i, ref] of refs.entries()) await addRef(ctx, fan, ref, `argument ${i + 1}`);
      fan.endFeeding();
    }
    yield* fan.items();
  } finally {
    left.abort();
    deadline.dispose();
  }

  const pending = fan.pending();
  const counted = fan.counted();
  if (ctx.signal.aborted || (deadline.expired && (pending.length > 0 || stdinOpen))) {
    if (ctx.signal.reason === 'EPIPE')
      throw new CliError('stdout closed', { exitCode: ExitCode.OK, silent: true });
    const what = ctx.signal.aborted ? 'interrupted' : `timed out${deadline.after}`;
    const outstanding =
      pending.length > 0
        ? ` with ${pending.length} of ${counted.length} ${counted.length === 1 ? 'reply' : 'replies'} outstanding`
        : ' while reading standard input';
    throw new CliError(`${what}${outstanding}`, {
      exitCode: ctx.signal.aborted ? ExitCode.INTERRUPTED : ExitCode.TIMEOUT,
      hint:
        pending.length > 0
          ? `the sessions go on; resume with: ${resumeWait(pending)}`
          : 'the sessions read so far are done',
    });
  }
  if (fan.firstError !== undefined) {
    // Each error was reported as it happened: end with the first one's code and nothing more.
    throw new CliError('a wait failed', { exitCode: fan.firstError, silent: true });
  }
  if (counted.length === 0) {
    throw new UsageError(
      'nothing to wait on: standard input held no session ids',
      'pipe the ids that `agents create` prints, or the <session>/<thread> that `agents send` prints',
    );
  }
}
