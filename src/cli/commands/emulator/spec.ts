import { Option, type Command } from 'commander';
import { decimalOption, hostOption, intOption, keySpecOption } from '../options/option-values.js';
import type { CommandSpec } from '../options/command-spec.js';
import type { EmulatorFlags } from './run.js';
import { directiveHelp } from '../../../emulator/directive-table.js';

// The emulator's fault modes and misbehaviours (src/emulator/surface.ts, misbehave.ts), listed here so that
// --help does not load the emulator; test/main/emulator/command.test.ts keeps the lists equal.
const FAULT_MODES = ['500', '502', '503', '504', 'html-502', '429', 'reset'];
FAULT_MODES.push('reset-after-commit', 'truncate', 'slow');
const MISBEHAVIOUR_NAMES = ['ignore-thread-filter', 'ignore-session-filter', 'endless-body', 'trickle'];
MISBEHAVIOUR_NAMES.push('endless-pages', 'bad-ids-session', 'bad-ids-thread', 'deep-json');

export const emulatorSpec: CommandSpec = (program, run) =>
  program
    .command('emulator')
    .description('serve the whole API on loopback with scripted agents: no account, no network')
    .option('--port <n>', 'port to listen on (0: any free port)', intOption(0, 65535), 4010)
    .option('--host <address>', 'address to listen on', hostOption, '127.0.0.1')
    .addOption(
      new Option(
        '--dialect <name>',
        "answer as the spec documents, as the live service does today, or as Blocks' CI mock",
      )
        .choices(['spec', 'live', 'ci-mock'])
        .default('spec'),
    )
    .addOption(
      new Option(
        '--repeated-params <how>',
        'a repeated role, page, … : keep the first value (spec default), the last, all (live default), or reject (422)',
      ).choices(['first', 'last', 'all', 'reject']),
    )
    .addOption(
      new Option('--misbehave <name...>', 'answer badly on purpose, for client tests').choices(
        MISBEHAVIOUR_NAMES,
      ),
    )
    .option(
      '--key <key[:workspace]>',
      'accept this API key (repeatable; default agents-dev-key:dev)',
      keySpecOption,
    )
    .option('--forbidden-key <key[:workspace]>', 'a known key answered 403 (repeatable)', keySpecOption)
    .option('--rate-limit <n>', 'requests per minute per key (0: no limit)', intOption(0, 1_000_000), 100)
    .addOption(
      new Option('--time-scale <x>', 'multiply every scripted delay (0.1: ten times faster)')
        .argParser(decimalOption(0, 1000))
        .default(1),
    )
    .option('--fault-rate <r>', 'share of requests that get a fault, 0 to 1', decimalOption(0, 1))
    .addOption(new Option('--fault <mode...>', 'faults to inject, with --fault-rate').choices(FAULT_MODES))
    .option('--fault-seed <n>', 'replayable fault choices', intOption(0, 2 ** 32 - 1))
    .option('--slow-ms <ms>', 'delay of the slow fault (default 2000)', intOption(0, 600_000))
    .addHelpText(
      'after',
      `
Prints the base URL on stdout, then one line per key (key, workspace). Serves until Ctrl-C.

${directiveHelp()}

Examples:
  $ agents emulator
  $ agents emulator --dialect live --port 0 --time-scale 0.1 --key ci-key:ci
  $ agents emulator --fault-rate 0.2 --fault 503 reset truncate
  $ agents emulator --repeated-params last --misbehave ignore-thread-filter`,
    )
    .action((flags: EmulatorFlags, cmd: Command) => run(cmd, load, (m, ctx) => m.emulator(ctx, flags)));

const load = () => import('./run.js');
