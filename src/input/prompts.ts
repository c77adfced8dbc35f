// Questions for a person at a terminal. Only called when ctx.caps.interactive; prompts go to stderr so
// that stdout stays data. Ctrl-C in a prompt ends the run with 130 and nothing sent or stored.
import { CliError, ExitCode } from '../errors.js';
import { CORE_AGENTS, type CoreAgent } from '../api/types.js';

/** Where prompts write, and the run's signal: SIGTERM (or SIGINT sent with kill) ends a prompt too. */
function context(signal?: AbortSignal) {
  return { output: process.stderr, clearPromptOnDone: false, ...(signal ? { signal } : {}) };
}

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
export async function askMessage(signal?: AbortSignal): Promise<string> {
  const { input } = await import('@inquirer/prompts');
  return guard(() => input({ message: 'Message:', required: true }, context(signal)));
}

/** Asks which core agent to use. */
export async function chooseAgent(signal?: AbortSignal): Promise<CoreAgent> {
  const { select } = await import('@inquirer/prompts');
  return guard(() =>
    select<CoreAgent>(
      { message: 'Agent:', choices: CORE_AGENTS.map((a) => ({ name: a, value: a })) },
      context(signal),
    ),
  );
}

/** Asks a yes/no question. */
export async function confirm(message: string, fallback = false, signal?: AbortSignal): Promise<boolean> {
  const { confirm: ask } = await import('@inquirer/prompts');
  return guard(() => ask({ message, default: fallback }, context(signal)));
}
