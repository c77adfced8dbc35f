// Questions for a person at a terminal, only when the run is interactive, on stderr (stdout stays data). The
// run's signal (SIGTERM, or a SIGINT sent with kill) ends a question as Ctrl-C does: exit 130.
import type * as Inquirer from '@inquirer/prompts';
import {
  CliError,
  CORE_AGENTS,
  type CoreAgent,
  ExitCode,
  type InStream,
  type OutStream,
  validateApiKey,
  validateBaseUrl,
} from '../../core/index.js';
import { errorMessage } from '../../util/text.js';

export type Prompts = ReturnType<typeof createPrompts>;

/** One session offered by the chooser; its label already made harmless. */
export type SessionChoice = { id: string; label: string };

/** Pure: the choices whose label or id hold every word typed (any case), in their order. */
export function filterChoices(choices: readonly SessionChoice[], term: string | undefined): SessionChoice[] {
  const words = (term ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  return choices.filter((c) => words.every((w) => `${c.label} ${c.id}`.toLowerCase().includes(w)));
}

/** Runs a validator for inquirer's `validate`: true, or the reason as text. */
function check(run: () => unknown): true | string {
  try {
    run();
    return true;
  } catch (err) {
    return errorMessage(err);
  }
}

const NOT_SENT = 'cancelled; nothing was sent';
const NOT_STORED = 'login cancelled; nothing was stored';

export function createPrompts(io: { input: InStream; output: OutStream; signal: AbortSignal }) {
  const context = { input: io.input, output: io.output, clearPromptOnDone: false, signal: io.signal };
  /** Asks with inquirer (loaded then); Ctrl-C (ExitPromptError) or an aborted run ends the run with 130. */
  const ask = async <T>(cancelled: string, question: (q: typeof Inquirer) => Promise<T>): Promise<T> => {
    const q = await import('@inquirer/prompts');
    try {
      return await question(q);
    } catch (err) {
      if (err instanceof Error && (err.name === 'ExitPromptError' || err.name === 'AbortPromptError'))
        throw new CliError(cancelled, { exitCode: ExitCode.INTERRUPTED, cause: err });
      throw err;
    }
  };
  return {
    // One line: --file is for longer text.
    message: () => ask(NOT_SENT, (q) => q.input({ message: 'Message:', required: true }, context)),
    agent: () =>
      ask(NOT_SENT, (q) =>
        q.select<CoreAgent>(
          { message: 'Agent:', choices: CORE_AGENTS.map((a) => ({ name: a, value: a })) },
          context,
        ),
      ),
    confirm: (question: string, fallback = false) =>
      ask(NOT_SENT, (q) => q.confirm({ message: question, default: fallback }, context)),
    baseUrl: (current: string | undefined) =>
      ask(NOT_STORED, (q) =>
        q.input(
          {
            message: 'Base URL of the service (without /rest/v1):',
            ...(current !== undefined ? { default: current } : {}),
            required: true,
            validate: (value) => check(() => validateBaseUrl(value)),
          },
          context,
        ),
      ),
    session: (choices: readonly SessionChoice[]) =>
      ask(NOT_SENT, (q) =>
        q.search<string>(
          {
            message: 'Session (type to search):',
            pageSize: 10,
            source: (term) =>
              filterChoices(choices, term).map((c) => ({ value: c.id, name: c.label, short: c.id })),
          },
          context,
        ),
      ),
    // One of a few values (a session's pull requests), the first offered first.
    choice: (question: string, choices: readonly { value: string; name: string }[]) =>
      ask(NOT_SENT, (q) => q.select<string>({ message: question, choices: [...choices] }, context)),
    apiKey: () =>
      ask(NOT_STORED, (q) =>
        q.password(
          {
            message: 'API key (Settings → API Keys in the dashboard):',
            mask: true,
            toggleMask: false,
            validate: (value) => check(() => validateApiKey(value.trim())),
          },
          context,
        ),
      ),
  };
}
