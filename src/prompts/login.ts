// The two questions of `agents login`, asked only at a terminal. Prompts go to stderr so stdout stays data;
// the key is typed into a masked password prompt whose mask cannot be toggled off.
import { CliError, ExitCode } from '../errors.js';
import type { UsageError } from '../errors.js';
import { validateApiKey, validateBaseUrl } from '../config/validate.js';

/** What a login prompt needs from the run. */
export interface PromptIo {
  signal?: AbortSignal;
}

/** Ctrl-C in a prompt (inquirer's ExitPromptError) or an aborted run: nothing is stored, exit 130. */
function cancelled(err: unknown): never {
  if (err instanceof Error && (err.name === 'ExitPromptError' || err.name === 'AbortPromptError')) {
    throw new CliError('login cancelled; nothing was stored', { exitCode: ExitCode.INTERRUPTED, cause: err });
  }
  throw err;
}

/** Runs a validator; returns true or its message, as inquirer's `validate` wants. */
function check(run: () => unknown): true | string {
  try {
    run();
    return true;
  } catch (err) {
    return (err as UsageError).message;
  }
}

function context(io: PromptIo) {
  return { output: process.stderr, clearPromptOnDone: false, ...(io.signal ? { signal: io.signal } : {}) };
}

/** Asks for the base URL; `current` (if valid) is the default. Returns what was typed, validated. */
export async function askBaseUrl(current: string | undefined, io: PromptIo = {}): Promise<string> {
  const { input } = await import('@inquirer/prompts');
  try {
    return await input(
      {
        message: 'Base URL of the service (without /rest/v1):',
        ...(current !== undefined ? { default: current } : {}),
        required: true,
        validate: (value) => check(() => validateBaseUrl(value)),
      },
      context(io),
    );
  } catch (err) {
    return cancelled(err);
  }
}

/** Asks for the API key in a masked prompt. */
export async function askApiKey(io: PromptIo = {}): Promise<string> {
  const { password } = await import('@inquirer/prompts');
  try {
    return await password(
      {
        message: 'API key (Settings → API Keys in the dashboard):',
        mask: true,
        toggleMask: false,
        validate: (value) => check(() => validateApiKey(value.trim())),
      },
      context(io),
    );
  } catch (err) {
    return cancelled(err);
  }
}
