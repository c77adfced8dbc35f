// Where a message comes from: the arguments, --file, standard input, or a prompt. Standard input is read only
// when asked for (`-`) or when nothing else gives one and it is no terminal: an idle, open stdin never hangs.
// And a JSON Schema file for an answer (--output-schema, the Action's output_schema): read whole, bounded.
import { accessSync, constants, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors/cli-error.js';
import type { InStream } from './io.js';
import { errorMessage } from '../../util/text.js';

export interface MessageSources {
  args: string[];
  file?: string;
  /** How errors name the file (default `--file PATH`; the Action names its input). */
  fileLabel?: string;
  stdin: InStream;
  /** Prompts are allowed (a terminal, not CI). */
  interactive: boolean;
  /** Asks the user; called only when interactive and nothing else gave a message. */
  prompt: () => Promise<string>;
  /** Told once when standard input is still being read after `afterMs` (`sleep 3 | agents create …`). */
  slowStdin?: { afterMs: number; tell: () => void };
}

async function readStream(stream: NodeJS.ReadableStream, slow: MessageSources['slowStdin']): Promise<Buffer> {
  const timer = slow && setTimeout(slow.tell, slow.afterMs);
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    return Buffer.concat(chunks);
  } finally {
    clearTimeout(timer);
  }
}

/** Bytes as UTF-8 text; invalid bytes are refused rather than silently replaced with U+FFFD. */
function decode(bytes: Buffer, origin: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    throw new UsageError(
      `the message from ${origin} is not valid UTF-8`,
      'convert it first, e.g. with iconv',
    );
  }
}

const notBoth = () => new UsageError('give the message as arguments or with --file, not both');

function unreadable(label: string, err: unknown): UsageError {
  const code = (err as NodeJS.ErrnoException).code ?? 'unreadable';
  return new UsageError(`cannot read ${label}: ${code}`);
}

/** The parse step's part: arguments or --file, not both, and a readable --file, not opened (a FIFO would
 * lose its writer). */
export function checkMessageSources(args: string[], file: string | undefined): void {
  if (file !== undefined && args.length > 0) throw notBoth();
  if (file === undefined || file === '-') return;
  try {
    if (statSync(file).isDirectory()) throw Object.assign(new Error(file), { code: 'EISDIR' });
    accessSync(file, constants.R_OK);
  } catch (err) {
    throw unreadable(`--file ${file}`, err);
  }
}

/** The message text, or a UsageError (exit 2) before anything is sent. */
export async function readMessage(src: MessageSources): Promise<string> {
  if (src.file !== undefined && src.args.length > 0) throw notBoth();
  const { origin, text } = await messageOf(src);
  if (text.trim() === '') {
    // Standard input is read when nothing else gave a message: an empty one is most often `</dev/null` or a
    // pipe whose writer printed nothing, and the way out is another source.
    const hint =
      origin === 'standard input'
        ? 'give the message as arguments, with --file PATH, or pipe it in: echo "fix the tests" | agents …'
        : undefined;
    throw new UsageError(`the message from ${origin} is empty`, hint);
  }
  return text;
}

async function messageOf(src: MessageSources): Promise<{ origin: string; text: string }> {
  if (src.file !== undefined && src.file !== '-') {
    const origin = src.fileLabel ?? `--file ${src.file}`;
    const bytes = await readFile(src.file).catch((err: unknown) => {
      throw unreadable(origin, err);
    });
    return { origin, text: decode(bytes, origin) };
  }
  const fromStdinArg = src.args.length === 1 && src.args[0] === '-';
  if (fromStdinArg || src.file === '-' || (src.args.length === 0 && src.stdin.isTTY !== true)) {
    const origin = 'standard input';
    return { origin, text: decode(await readStream(src.stdin, src.slowStdin), origin) };
  }
  if (src.args.length > 0) return { origin: 'the arguments', text: src.args.join(' ') };
  if (src.interactive) return { origin: 'the prompt', text: await src.prompt() };
  throw new UsageError(
    'no message given',
    'pass it as arguments, with --file PATH, or on standard input (-)',
  );
}

/** A schema file larger than this is not a schema someone wrote for an answer. */
const MAX_SCHEMA_BYTES = 1024 * 1024;

/** The JSON in the file at `path` (not yet checked to be a schema); `label` names it in each error. */
export async function readSchemaFile(path: string, label: string): Promise<unknown> {
  const bytes = await readFile(path).catch((err: unknown) => {
    const why = (err as NodeJS.ErrnoException).code ?? errorMessage(err);
    throw new UsageError(`${label}: cannot read it (${why})`);
  });
  if (bytes.length > MAX_SCHEMA_BYTES) throw new UsageError(`${label}: over 1 MiB, not a schema`);
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch (err) {
    throw new UsageError(`${label}: not JSON (${errorMessage(err)})`);
  }
}
