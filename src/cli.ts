// The commander program: global flags, every command registered here, and each command's module
// imported only when that command runs, so `--help` and `--version` pay for commander alone.
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { CliError, ExitCode } from './errors.js';
import { VERSION } from './version.js';
import type { Context, GlobalOptions } from './context.js';
import { CORE_AGENTS } from './api/types.js';
import { durationOption, intOption, uuidListOption, uuidOption } from './util/option-parsers.js';
import type { CreateFlags } from './commands/create.js';
import type { SendFlags } from './commands/send.js';
import type { ShowFlags } from './commands/show.js';
import type { TailFlags } from './commands/tail.js';
import type { EmulatorFlags } from './commands/emulator.js';
import type { FaultMode } from './emulator/index.js';

const EXAMPLES = `
Examples:
  $ printf '%s' "$prompt" | agents create --agent claude --wait > answer.md
  $ id=$(agents create -a codex "Add a --verbose flag")
  $ agents send "$id" --wait --timeout 20m "Fix the failing test"
  $ agents tail last --until-final
  $ agents show last --all --json
  $ agents emulator --port 4010

Exit codes: 0 ok, 1 request failed, 2 usage error, 3 auth failure, 4 not found,
            124 --timeout ran out, 130 interrupted.
Docs: README.md, and the contract in cli-contract.md.`;

/** Runs a command's action with a fresh Context; the one place that builds it. */
async function withContext(cmd: Command, signal: AbortSignal, run: (ctx: Context) => Promise<void>) {
  const { createContext } = await import('./context.js');
  const ctx = await createContext({ globals: cmd.optsWithGlobals<GlobalOptions>(), signal });
  await run(ctx);
}

/** Builds the program. `signal` aborts on Ctrl-C / SIGTERM. Exported for in-process tests. */
export function buildProgram(signal: AbortSignal): Command {
  const program = new Command('agents')
    .description('Run conversations with software agents through the Agent Sessions API.')
    .version(`${VERSION}`, '-V, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .option('--profile <name>', 'config profile to use (env AGENTS_PROFILE; default "default")')
    .option('--base-url <url>', 'service base URL, without /rest/v1 (env AGENTS_BASE_URL)')
    .option('--json', 'print JSON on stdout instead of text')
    .option('-q, --quiet', 'print nothing on stderr but errors')
    .option('--no-color', 'no colour (NO_COLOR and FORCE_COLOR are honoured too)')
    .option('--debug', 'trace each request and response on stderr, key redacted (env AGENTS_DEBUG=1)')
    .addHelpText('after', EXAMPLES)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({
      // commander's own messages are one line starting with "error:"; its "(Did you mean …?)" suggestion
      // would be a second, unlabelled line, so it becomes the contract's `hint:` line.
      outputError: (str, write) => {
        const [, message = str, suggestion] = /^([\s\S]*?)(?:\n\(Did you mean (.+)\?\))?\n?$/.exec(str) ?? [];
        write(`${oneLine(message)}\n${suggestion ? `hint: did you mean ${suggestion}?\n` : ''}`);
      },
    });

  // ── Commands ── Each is registered here and imports its module only inside its action, e.g.
  //   program.command('x').description('…').option(…)
  //     .action((opts, cmd: Command) => withContext(cmd, signal, async (ctx) => {
  //       const { runX } = await import('./commands/x.js');
  //       …print what runX returns through ctx.out / ctx.log…
  //     }));
  // Validate option values with commander (Option#choices, argParser throwing InvalidArgumentError)
  // so bad values exit 2 before anything runs.
  // (configuration: config, login, logout)
  const config = program
    .command('config')
    .description('show and change the settings of a profile (--profile NAME; default "default")')
    .addHelpText(
      'after',
      `
Keys: api-key, base-url, agent. list and get show the value in effect (flag > env > profile), a key masked.
Examples:
  $ agents config list
  $ agents config set base-url https://agents.example.com
  $ agents --profile work config set agent codex
  $ agents config path`,
    );
  config
    .command('list')
    .description('the settings in effect and where each comes from (the key masked)')
    .action((_opts, cmd: Command) =>
      withContext(cmd, signal, async (ctx) => (await import('./commands/config.js')).runConfigList(ctx)),
    );
  config
    .command('get')
    .description('print the value in effect for KEY (api-key masked)')
    .argument('<key>', 'api-key, base-url or agent')
    .action((key: string, _opts, cmd: Command) =>
      withContext(cmd, signal, async (ctx) => (await import('./commands/config.js')).runConfigGet(ctx, key)),
    );
  config
    .command('set')
    .description('store KEY in the profile (for api-key prefer `agents login --with-key`)')
    .argument('<key>', 'api-key, base-url or agent')
    .argument('<value>')
    .action((key: string, value: string, _opts, cmd: Command) =>
      withContext(cmd, signal, async (ctx) =>
        (await import('./commands/config.js')).runConfigSet(ctx, key, value),
      ),
    );
  config
    .command('unset')
    .description('remove KEY from the profile')
    .argument('<key>', 'api-key, base-url or agent')
    .action((key: string, _opts, cmd: Command) =>
      withContext(cmd, signal, async (ctx) =>
        (await import('./commands/config.js')).runConfigUnset(ctx, key),
      ),
    );
  config
    .command('path')
    .description('print where the config file is')
    .action((_opts, cmd: Command) =>
      withContext(cmd, signal, async (ctx) => (await import('./commands/config.js')).runConfigPath(ctx)),
    );
  program
    .command('login')
    .description('check an API key against the service and store it with the base URL in the profile')
    .option('--with-key', 'read the key from standard input (for CI and scripts)')
    .addHelpText(
      'after',
      `
At a terminal it asks for the base URL and the key (masked). Nothing is stored unless the service accepts it.
Examples:
  $ agents login
  $ printf '%s' "$AGENTS_KEY" | agents login --with-key --base-url https://agents.example.com
  $ agents login --profile work`,
    )
    .action((opts: { withKey?: boolean }, cmd: Command) =>
      withContext(cmd, signal, async (ctx) => {
        const { runLogin } = await import('./commands/login.js');
        await runLogin(ctx, opts);
      }),
    );
  program
    .command('logout')
    .description('remove the API key of the profile')
    .action((_opts, cmd: Command) =>
      withContext(cmd, signal, async (ctx) => void (await import('./commands/logout.js')).runLogout(ctx)),
    );
  // (emulator)
  const decimalOption = (min: number, max: number) => (value: string) => {
    const n = Number(value);
    if (value.trim() === '' || !Number.isFinite(n) || n < min || n > max) {
      throw new InvalidArgumentError(`expected a number from ${min} to ${max}.`);
    }
    return n;
  };
  const keySpecOption = (value: string, previous: string[] = []) => {
    // Printable ASCII without spaces or colons (it goes into a header), then an optional :workspace.
    if (!/^[!-9;-~]+(:[\w.-]+)?$/.test(value)) {
      throw new InvalidArgumentError('expected KEY or KEY:WORKSPACE (printable, no spaces).');
    }
    return [...previous, value];
  };
  // An empty --host would make the server listen on every interface, dev keys and all.
  const hostOption = (value: string) => {
    if (!/^\S+$/.test(value))
      throw new InvalidArgumentError('expected a host name or address, e.g. 127.0.0.1.');
    return value;
  };
  // The emulator's FAULT_MODES, listed here so --help does not load the emulator (a test keeps them equal).
  const faultModes: FaultMode[] = ['500', '502', '503', '504', 'html-502', '429', 'reset'];
  faultModes.push('reset-after-commit', 'truncate', 'slow'); // two lines rather than prettier's twelve
  program
    .command('emulator')
    .description('serve the whole API on loopback with scripted agents: no account, no network')
    .addOption(
      new Option('--port <n>', 'port to listen on (0: any free port)')
        .argParser(intOption(0, 65535))
        .default(4010),
    )
    .option('--host <address>', 'address to listen on', hostOption, '127.0.0.1')
    .option(
      '--key <key[:workspace]>',
      'accept this API key (repeatable; default agents-dev-key:dev)',
      keySpecOption,
    )
    .option('--forbidden-key <key[:workspace]>', 'a known key answered 403 (repeatable)', keySpecOption)
    .addOption(
      new Option('--rate-limit <n>', 'requests per minute per key (0: no limit)')
        .argParser(intOption(0, 1_000_000))
        .default(100),
    )
    .addOption(
      new Option('--time-scale <x>', 'multiply every scripted delay (0.1: ten times faster)')
        .argParser(decimalOption(0, 1000))
        .default(1),
    )
    .addOption(
      new Option('--fault-rate <r>', 'share of requests that get a fault, 0 to 1').argParser(
        decimalOption(0, 1),
      ),
    )
    .addOption(new Option('--fault <mode...>', 'faults to inject, with --fault-rate').choices(faultModes))
    .addOption(
      new Option('--fault-seed <n>', 'replayable fault choices').argParser(intOption(0, 2 ** 32 - 1)),
    )
    .addOption(
      new Option('--slow-ms <ms>', 'delay of the slow fault (default 2000)').argParser(intOption(0, 600_000)),
    )
    .addHelpText(
      'after',
      `
Prints the base URL on stdout, then one line per key (key, workspace). Serves until Ctrl-C.
Examples:
  $ agents emulator
  $ agents emulator --port 0 --time-scale 0.1 --key ci-key:ci
  $ agents emulator --fault-rate 0.2 --fault 503 reset truncate`,
    )
    .action((opts: EmulatorFlags, cmd: Command) =>
      withContext(cmd, signal, async (ctx) => {
        const { runEmulator } = await import('./commands/emulator.js');
        await runEmulator(ctx, opts);
      }),
    );
  // (conversation: create, send, show, tail)
  const replyOptions = (cmd: Command) =>
    cmd
      .option('--file <path>', 'read the message from a file ("-" for standard input)')
      .option('--artifact <uuid>', 'attach an existing artifact (repeatable)', uuidListOption)
      .option('-w, --wait', 'wait for the final reply and print its text')
      .option('-f, --follow', 'print each assistant message as it lands, ending at the final one')
      .option(
        '--timeout <duration>',
        'bound --wait/--follow: 90s, 20m, 1h or seconds (exit 124)',
        durationOption,
      )
      .option('-o, --output <file>', 'with --wait: also write the final text to FILE');

  replyOptions(
    program
      .command('create')
      .description('create a session with a first message')
      .argument('[message...]', 'the message ("-" reads standard input)')
      .addOption(
        new Option('-a, --agent <name>', 'core agent (env AGENTS_AGENT, config "agent")').choices(
          CORE_AGENTS,
        ),
      )
      .option('--agent-id <uuid>', 'a specific agent of the workspace', uuidOption)
      .option('--agent-profile <uuid>', 'an existing agent profile', uuidOption)
      .option('--agent-profile-file <file>', 'a JSON Profile object')
      .option('--private', 'hide the session from other workspace members'),
  )
    .addHelpText(
      'after',
      `
Without --wait or --follow the new session id is printed on stdout.
Examples:
  $ agents create -a claude "Explain this repository"
  $ printf '%s' "$prompt" | agents create --agent claude --wait > answer.md
  $ agents create -a codex --wait --timeout 20m --output reply.md --file task.md`,
    )
    .action((words: string[], opts: CreateFlags, cmd: Command) =>
      withContext(cmd, signal, async (ctx) => {
        const { runCreate } = await import('./commands/create.js');
        await runCreate(ctx, words, opts);
      }),
    );

  replyOptions(
    program
      .command('send')
      .description('post a follow-up: starts a new thread and interrupts the turn in progress')
      .argument('<session>', 'session id, dashboard address, or "last"')
      .argument('[message...]', 'the message ("-" reads standard input)')
      .option('--agent-profile <uuid>', 'an existing agent profile for this turn', uuidOption)
      .option('--agent-profile-file <file>', 'a JSON Profile object for this turn')
      .option('-y, --yes', 'interrupt a running turn without asking'),
  )
    .addHelpText(
      'after',
      `
Without --wait or --follow the new thread id is printed on stdout.
Examples:
  $ agents send last "Now add tests"
  $ agents send "$SESSION" --wait --timeout 20m "Fix the failing test"`,
    )
    .action((ref: string, words: string[], opts: SendFlags, cmd: Command) =>
      withContext(cmd, signal, async (ctx) => {
        const { runSend } = await import('./commands/send.js');
        await runSend(ctx, ref, words, opts);
      }),
    );

  program
    .command('show')
    .description('print a session and its conversation, oldest first, grouped by thread')
    .argument('<session>', 'session id, dashboard address, or "last"')
    .option('--thread <uuid>', 'only this thread', uuidOption)
    .option('--tools', 'include tool calls')
    .addOption(
      new Option('--limit <n>', 'the newest N messages (default 50)')
        .argParser(intOption(1, 100_000))
        .conflicts('all'),
    )
    .option('--all', 'every message')
    .addHelpText(
      'after',
      `\nExamples:\n  $ agents show last\n  $ agents show "$SESSION" --all --json > session.json`,
    )
    .action((ref: string, opts: ShowFlags, cmd: Command) =>
      withContext(cmd, signal, async (ctx) => {
        const { runShow } = await import('./commands/show.js');
        await runShow(ctx, ref, opts);
      }),
    );

  program
    .command('tail')
    .description('print the last messages, then follow new ones as they land')
    .argument('<session>', 'session id, dashboard address, or "last"')
    .option('-n, --lines <n>', 'how many existing messages to print first', intOption(0, 10_000), 10)
    .option('--thread <uuid>', 'only this thread', uuidOption)
    .option('--tools', 'include tool calls')
    .option('--until-final', "exit 0 after the latest turn's final message")
    .option(
      '--timeout <duration>',
      'stop after this long: 90s, 20m, 1h or seconds (exit 124)',
      durationOption,
    )
    .addHelpText(
      'after',
      `\nExamples:\n  $ agents tail last\n  $ agents tail "$SESSION" --until-final --json | jq -r .message`,
    )
    .action((ref: string, opts: TailFlags, cmd: Command) =>
      withContext(cmd, signal, async (ctx) => {
        const { runTail } = await import('./commands/tail.js');
        await runTail(ctx, ref, opts);
      }),
    );

  return program;
}

/**
 * Error text made one harmless line: a message often echoes the user's own argument (a path, a value), and
 * a line break or an escape sequence in it would split the error or drive the terminal. They become
 * visible escapes.
 */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g, (c) => {
    const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
    return named[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** Prints a CliError (or anything else) as one `error:` line plus an optional hint; returns the exit code. */
export function reportError(
  err: unknown,
  debug: boolean,
  write = (s: string) => void process.stderr.write(s),
) {
  if (err instanceof CliError) {
    write(`error: ${oneLine(err.message)}\n`);
    if (err.hint) write(`hint: ${oneLine(err.hint)}\n`);
    if (debug && err.stack) write(`${err.stack}\n`);
    return err.exitCode;
  }
  const message = err instanceof Error ? err.message : String(err);
  write(`error: ${oneLine(message.split('\n')[0] ?? '')}\n`);
  if (debug && err instanceof Error && err.stack) write(`${err.stack}\n`);
  return ExitCode.FAILURE;
}

/** Thrown by the preAction hook of a `parseOnly` run: parsing reached a command's action. */
class HandOff extends Error {}

/**
 * Entry point used by bin/agents.js. Sets process.exitCode; never throws; resolves to true.
 *
 * With `parseOnly` (the launcher's CommonJS copy of this module, which starts without Node's ESM loader) it
 * answers help, version and usage errors itself, and resolves to false without running anything once
 * parsing reaches a command's action: the launcher then calls the ESM build's `main` with the same argv.
 * So parsing must stay free of side effects (argParsers and preSubcommand hooks may run twice).
 */
export async function main(argv: string[], { parseOnly = false } = {}): Promise<boolean> {
  const controller = new AbortController();
  let interrupts = 0;
  const onSignal = (sig: NodeJS.Signals) => {
    interrupts += 1;
    // A second Ctrl-C means "now": do not wait for cleanup.
    if (interrupts > 1) process.exit(ExitCode.INTERRUPTED);
    controller.abort(sig);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // `agents tail … | head -1`: a closed pipe ends the run quietly, not with a stack trace.
  const onStdoutError = (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(ExitCode.OK);
    throw err;
  };
  process.stdout.on('error', onStdoutError);

  const debug = argv.includes('--debug') || /^(1|true|yes)$/i.test(process.env.AGENTS_DEBUG ?? '');
  const program = buildProgram(controller.signal);
  if (parseOnly) {
    program.hook('preAction', () => {
      throw new HandOff('parsing reached an action');
    });
  }
  try {
    await program.parseAsync(argv);
    process.exitCode = ExitCode.OK;
  } catch (err) {
    if (err instanceof HandOff) {
      process.stdout.off('error', onStdoutError);
      return false;
    }
    if (err instanceof CommanderError) {
      // help and version end with exit code 0; every other commander error is a usage error.
      process.exitCode = err.exitCode === 0 ? ExitCode.OK : ExitCode.USAGE;
    } else {
      process.exitCode = reportError(err, debug);
    }
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
  return true;
}
