// Questions for a person at a terminal. Only called when ctx.caps.interactive; prompts go to stderr so
// that stdout stays data. Ctrl-C in a prompt ends the run with 130 and nothing sent or stored.
import { CliError, ExitCode } from '../errors.js';
import { CORE_AGENTS, type CoreAgent } from '../api/types.js';

const PROMPT_CONTEXT = { output: process.stderr, clearPromptOnDone: false };

async function guard<T>(ask: () => Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (err) {
    if (err instanceof Error && (err.name === 'ExitPromptError' || err.name === 'AbortPromptError')) {
      throw new CliError('cancelled; nothing was sent', { exitCode: ExitCode.INTERRUPTED });
    }
    throw err;
  }
}

/** Asks for a message (one line; use --file for longer text). */
export async function askMessage(): Promise<string> {
  const { input } = await import('@inquirer/prompts');
  return guard(() => input({ message: 'Message:', required: true }, PROMPT_CONTEXT));
}

/** Asks which core agent to use. */
export async function chooseAgent(): Promise<CoreAgent> {
  const { select } = await import('@inquirer/prompts');
  return guard(() =>
    select<CoreAgent>(
      { message: 'Agent:', choices: CORE_AGENTS.map((a) => ({ name: a, value: a })) },
      PROMPT_CONTEXT,
    ),
  );
}

/** Asks a yes/no question. */
export async function confirm(message: string, fallback = false): Promise<boolean> {
  const { confirm: ask } = await import('@inquirer/prompts');
  return guard(() => ask({ message, default: fallback }, PROMPT_CONTEXT));
}
