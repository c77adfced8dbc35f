// A create's or send's message: message.ts's sources, and a note when a quiet stdin keeps a person at a
// terminal waiting (kept out of message.ts, which the Action uses, so that it needs no run context).
import type { Context } from '../run/context.js';
import { readMessage } from '../../core/index.js';

/** How long standard input may keep a person at a terminal waiting before they are told it is being read. */
const STDIN_NOTICE_MS = 1000;

export function commandMessage(ctx: Context, args: string[], file: string | undefined): Promise<string> {
  const end = ctx.io.runtime.platform === 'win32' ? 'Ctrl-Z then Enter' : 'Ctrl-D';
  return readMessage({
    args,
    file,
    stdin: ctx.io.stdin,
    interactive: ctx.prompts !== undefined,
    prompt: () => ctx.prompts!.message(),
    ...(ctx.caps.stderrIsTTY && {
      slowStdin: {
        afterMs: ctx.io.tuning?.stdinNoticeMs ?? STDIN_NOTICE_MS,
        tell: () =>
          ctx.log.info(
            `Reading the message from standard input (end it with ${end}, or give it as arguments)…`,
          ),
      },
    }),
  });
}
