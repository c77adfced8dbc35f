// The options of the commands that post a turn; input/reply-flags.ts checks their combinations.
import { loadOutputSchema } from '../../../core/sessions/output-schema.js';
import { Option, type Command } from 'commander';
import { CORE_AGENTS } from '../../../core/api/types.js';
import { readSchemaFile } from '../../../core/io/schema-file.js';
import type { OutputSchema } from '../../../core/sessions/structured-output.js';
import { durationOption, intOption, uuidListOption, uuidOption } from './option-values.js';

/** --notify and --no-notify of a command that waits: true, false, or undefined (the setting decides). */
export function addNotifyOptions(cmd: Command, what: string): Command {
  return cmd
    .option('--notify', what)
    .option('--no-notify', 'no notification for this run, whatever the notify setting says');
}

export function addAgentOptions(cmd: Command, agent: string): Command {
  return cmd
    .addOption(new Option('-a, --agent <name>', agent).choices(CORE_AGENTS))
    .option('--agent-id <uuid>', 'a specific agent of the workspace', uuidOption)
    .option('--agent-profile <uuid>', 'an existing agent profile', uuidOption)
    .option('--agent-profile-file <file>', 'a JSON Profile object');
}

export function addReplyOptions(cmd: Command): Command {
  const head = cmd
    .option('--file <path>', 'read the message from a file ("-" for standard input)')
    .option('--artifact <uuid>', 'attach an existing artifact (repeatable)', uuidListOption)
    .option('-w, --wait', 'wait for the final reply and print its text')
    .option('-f, --follow', 'print each assistant message as it lands, ending at the final one')
    .option('--timeout <duration>', 'bound the command: 90s, 20m, 1h or seconds (exit 124)', durationOption)
    .option('-o, --output <file>', 'with --wait: also write the final text to FILE');
  return addNotifyOptions(head, 'with --wait or --follow: ring the bell and notify the desktop when it ends')
    .option(
      '--github-output',
      'with --wait: write the result (ids, address, status, reply, pull requests) to $GITHUB_OUTPUT',
    )
    .option(
      '--no-step-summary',
      'under GitHub Actions: no summary in $GITHUB_STEP_SUMMARY (AGENTS_STEP_SUMMARY=0 too)',
    )
    .option(
      '--output-schema <file>',
      'a JSON Schema the answer must match; prints it as one line of JSON (implies --wait; exit 5 if never)',
    )
    .option(
      '--schema-retries <n>',
      'with --output-schema: follow-ups asking again when it does not match (0 to 10, default 2)',
      intOption(0, 10),
    );
}

/** --output-schema FILE compiled (ajv is loaded here, and only here): a bad file is exit 2, before anything is sent. */
export async function loadSchemaOption(path: string): Promise<OutputSchema> {
  const label = `--output-schema ${path}`;
  return loadOutputSchema(await readSchemaFile(path, label), label);
}
