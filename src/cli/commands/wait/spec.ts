import type { Command } from 'commander';
import { waitRefArg } from '../../input/wait-ref.js';
import type { WaitRef } from '../../../core/index.js';
import { durationOption } from '../options/option-values.js';
import type { CommandSpec } from '../options/command-spec.js';
import { addNotifyOptions, loadSchemaOption } from '../options/reply-options.js';
import type { WaitFlags } from './run.js';

export const waitSpec: CommandSpec = (program, run) =>
  addNotifyOptions(
    program.command('wait'),
    'ring the bell and notify the desktop as each reply lands (or a wait fails)',
  )
    .description('wait for the final reply of each session or thread given, printing each as it lands')
    .argument(
      '[ref...]',
      'session id, address, "last", or <session>/<thread> (default: one per line on standard input)',
      waitRefArg,
    )
    .option(
      '--timeout <duration>',
      'bound the whole wait: 90s, 20m, 1h or seconds (exit 124)',
      durationOption,
    )
    .option('--output-dir <dir>', 'also write each reply to DIR/<session-id>.md')
    .option(
      '--output-schema <file>',
      'a JSON Schema each reply must match: prints its JSON, one line (no follow-up; exit 5 if one does not)',
    )
    .addHelpText(
      'after',
      `
A session alone waits for its latest turn (the one in progress, or the last one if it has ended).
Piped, each reply is printed followed by a newline (among several, "reply of <session>/<thread>:" on
stderr before it); on a terminal under a line naming its session, with a status line per session on
stderr. --json: one {"session", "thread", "message"} per line.
With --output-dir, DIR/<session-id>-<thread-id>.md when several threads of one session are waited on.
Exit 0 when every reply has come; 124 when --timeout ran out first (the ones still pending and the
command that resumes them on stderr); else the first failure's code, once the others are done.
Examples:
  $ for t in tasks/*.md; do agents create -a claude --file "$t"; done | agents wait --output-dir replies/
  $ agents wait "$S1" "$S2" --timeout 30m --json
  $ ref=$(agents send "$SESSION" "Now add tests") && agents wait "$ref"`,
    )
    .action(
      async (refs: WaitRef[] | undefined, opts: WaitFlags & { outputSchema?: string }, cmd: Command) => {
        const { outputSchema, ...flags } = opts;
        if (outputSchema !== undefined) flags.schema = await loadSchemaOption(outputSchema);
        return run(cmd, load, (m, ctx) => m.wait(ctx, refs ?? [], flags));
      },
    );

const load = () => import('./run.js');
