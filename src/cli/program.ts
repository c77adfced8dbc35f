// The commander program: global flags, every command, and each command's module imported only when that
// command runs, so --help and usage errors pay for commander alone. Option values are validated here
// (Option#choices, argParsers), and combinations of options and the files they name by checks.ts before a
// command's module loads, so bad input exits 2 before anything runs.
import { Argument, Command, Option, type OutputConfiguration } from 'commander';
import { VERSION } from '../version.js';
import type { Context } from '../context.js';
import type { Result } from '../output/items.js';
import { CORE_AGENTS } from '../api/types.js';
import { MAX_SESSIONS } from '../state/sessions.js';
import type { ChatOptions, CreateOptions, SendOptions } from './checks.js';
import type { ShowFlags } from '../commands/show/run.js';
import type { TailFlags } from '../commands/tail/run.js';
import type { EmulatorFlags } from '../commands/emulator/run.js';
import type { LoginFlags } from '../commands/login/run.js';
import type { ArtifactFlags } from '../commands/artifact/run.js';
import type { LsFlags } from '../commands/ls/run.js';
import type { SessionRef } from '../input/session-ref.js';
import type { WaitFlags } from '../commands/wait/run.js';
import {
  threadOptionArg,
  waitRefArg,
  withThreadSession,
  type ThreadOption,
  type WaitRef,
} from '../input/wait-ref.js';
import {
  decimalOption,
  durationOption,
  hostOption,
  intOption,
  keySpecOption,
  sessionArgument,
  uuidListOption,
  uuidOption,
} from '../input/option-values.js';

/**
 * The checks of the parse step that need more than one option or a look at a file (checks.ts): loaded by
 * the commands that have such options, before the command's own module.
 */
const checks = () => import('./checks.js');

/** Runs a command's body with the run's Context and prints what it returns. */
export type Runner = (cmd: Command, body: (ctx: Context) => Promise<Result> | Result) => Promise<void>;

const EXAMPLES = `
Examples:
  $ printf '%s' "$prompt" | agents create --agent claude --wait > answer.md
  $ id=$(agents create -a codex "Add a --verbose flag")
  $ agents send "$id" --wait --timeout 20m "Fix the failing test"
  $ agents tail last --until-final
  $ agents chat -a claude
  $ for t in tasks/*.md; do agents create -a claude --file "$t"; done | agents wait --output-dir replies/
  $ agents show last --all --json
  $ agents ls
  $ agents emulator --port 4010

Exit codes: 0 ok, 1 request failed, 2 usage error, 3 auth failure, 4 not found,
            124 --timeout ran out, 130 interrupted.
Docs: the README in this package (README.md), and \`agents <command> --help\`.`;

const SESSION_ARG = 'session id, address (…/sessions/<id>), or "last"';
// Where a prompt can fill the session in, the argument is optional to commander: a terminal offers the
// sessions of `agents ls` to choose from, a script still gets the usage error (src/input/pick-session.ts).
const SESSION_ARG_OR_PICK = `${SESSION_ARG}; at a terminal, chosen from \`agents ls\` when left out`;

/** The shells `agents completion` writes a script for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;

const THREAD_OPT = 'only this thread: its id, or <session>/<thread> as send prints it';
const READ_TIMEOUT = 'bound the whole read, retries included: 90s, 20m, 1h or seconds (exit 124)';

/** show and tail: the `--thread` option's id, its session part checked against `<session>`. */
function threadFlags<F extends { thread?: string }>(
  ref: SessionRef | undefined,
  opts: Omit<F, 'thread'> & { thread?: ThreadOption },
): [SessionRef | undefined, F] {
  return [withThreadSession(ref, opts.thread), { ...opts, thread: opts.thread?.threadId } as F];
}

// The emulator's fault modes, listed here so --help does not load the emulator (a test keeps them equal).
const FAULT_MODES = ['500', '502', '503', '504', 'html-502', '429', 'reset'];
FAULT_MODES.push('reset-after-commit', 'truncate', 'slow');
// Likewise the emulator's misbehaviours (src/emulator/misbehave.ts; the same test keeps them equal).
export const MISBEHAVIOUR_NAMES = [
  'ignore-thread-filter',
  'ignore-session-filter',
  'endless-body',
  'trickle',
];
MISBEHAVIOUR_NAMES.push('endless-pages', 'bad-ids-session', 'bad-ids-thread', 'deep-json');

/**
 * Builds the program. `run` gives each action its Context and prints what it returns; `output` is where
 * commander writes help and its errors (set before any command is added, so every command inherits it).
 */
export function buildProgram(run: Runner, output: OutputConfiguration): Command {
  const program = new Command('agents')
    .exitOverride()
    .configureOutput(output)
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
    .configureHelp({ showGlobalOptions: true })
    .showSuggestionAfterError(true)
    // Our own `help [command]`: commander's prints the whole help for a command it does not know.
    .helpCommand(false);
  suggestSynonyms(program);

  // ── configuration: config, login, logout ──
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
  const configCommands = () => import('../commands/config/run.js');
  config
    .command('list')
    .description('the settings in effect and where each comes from (the key masked)')
    .action((_opts, cmd: Command) => run(cmd, async (ctx) => (await configCommands()).configList(ctx)));
  config
    .command('get')
    .description('print the value in effect for KEY (api-key masked)')
    .argument('<key>', 'api-key, base-url or agent')
    .action((key: string, _opts, cmd: Command) =>
      run(cmd, async (ctx) => (await configCommands()).configGet(ctx, key)),
    );
  config
    .command('set')
    .description('store KEY in the profile (for api-key prefer `agents login --with-key`)')
    .argument('<key>', 'api-key, base-url or agent')
    .argument('<value>')
    .action((key: string, value: string, _opts, cmd: Command) =>
      run(cmd, async (ctx) => (await configCommands()).configSet(ctx, key, value)),
    );
  config
    .command('unset')
    .description('remove KEY from the profile')
    .argument('<key>', 'api-key, base-url or agent')
    .action((key: string, _opts, cmd: Command) =>
      run(cmd, async (ctx) => (await configCommands()).configUnset(ctx, key)),
    );
  config
    .command('path')
    .description('print where the config file is')
    .action((_opts, cmd: Command) => run(cmd, async (ctx) => (await configCommands()).configPath(ctx)));
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
    .action((opts: LoginFlags, cmd: Command) =>
      run(cmd, async (ctx) => (await import('../commands/login/run.js')).login(ctx, opts)),
    );
  program
    .command('logout')
    .description('remove the API key of the profile')
    .action((_opts, cmd: Command) =>
      run(cmd, async (ctx) => (await import('../commands/logout/run.js')).logout(ctx)),
    );

  // ── emulator ──
  program
    .command('emulator')
    .description('serve the whole API on loopback with scripted agents: no account, no network')
    .addOption(
      new Option('--port <n>', 'port to listen on (0: any free port)')
        .argParser(intOption(0, 65535))
        .default(4010),
    )
    .option('--host <address>', 'address to listen on', hostOption, '127.0.0.1')
    .addOption(
      new Option('--dialect <name>', 'answer as the spec documents, or as the live service does today')
        .choices(['spec', 'live'])
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
    .addOption(new Option('--fault <mode...>', 'faults to inject, with --fault-rate').choices(FAULT_MODES))
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
  $ agents emulator --dialect live --port 0 --time-scale 0.1 --key ci-key:ci
  $ agents emulator --fault-rate 0.2 --fault 503 reset truncate
  $ agents emulator --repeated-params last --misbehave ignore-thread-filter`,
    )
    .action((opts: EmulatorFlags, cmd: Command) =>
      run(cmd, async (ctx) => (await import('../commands/emulator/run.js')).emulator(ctx, opts)),
    );

  // ── conversation: create, send, show, tail ──
  const replyOptions = (cmd: Command) =>
    cmd
      .option('--file <path>', 'read the message from a file ("-" for standard input)')
      .option('--artifact <uuid>', 'attach an existing artifact (repeatable)', uuidListOption)
      .option('-w, --wait', 'wait for the final reply and print its text')
      .option('-f, --follow', 'print each assistant message as it lands, ending at the final one')
      .option('--timeout <duration>', 'bound the command: 90s, 20m, 1h or seconds (exit 124)', durationOption)
      .option('-o, --output <file>', 'with --wait: also write the final text to FILE')
      .option('--notify', 'with --wait or --follow: ring the bell and notify the desktop when it ends')
      .option(
        '--github-output',
        'with --wait: write the result (ids, address, status, reply, pull requests) to $GITHUB_OUTPUT',
      )
      .option(
        '--no-step-summary',
        'under GitHub Actions: no summary in $GITHUB_STEP_SUMMARY (AGENTS_STEP_SUMMARY=0 too)',
      );

  replyOptions(
    program
      .command('create')
      .description('create a session with a first message')
      .argument('[message...]', 'the message ("-" reads standard input)')
      .addOption(
        new Option('-a, --agent <name>', 'agent (env AGENTS_AGENT, config "agent")').choices(CORE_AGENTS),
      )
      .option('--agent-id <uuid>', 'a specific agent of the workspace', uuidOption)
      .option('--agent-profile <uuid>', 'an existing agent profile', uuidOption)
      .option('--agent-profile-file <file>', 'a JSON Profile object')
      .option('--private', 'hide the session from other workspace members'),
  )
    .addHelpText(
      'after',
      `
Without --wait or --follow the new session id is printed on stdout (what \`agents wait\` reads).
Examples:
  $ agents create -a claude "Explain this repository"
  $ printf '%s' "$prompt" | agents create --agent claude --wait > answer.md
  $ agents create -a codex --wait --timeout 20m --output reply.md --file task.md`,
    )
    .action(async (words: string[], opts: CreateOptions, cmd: Command) => {
      const flags = (await checks()).checkCreate(words, opts);
      return run(cmd, async (ctx) => (await import('../commands/create/run.js')).create(ctx, words, flags));
    });

  replyOptions(
    program
      .command('send')
      .description('post a follow-up: starts a new thread and interrupts the turn in progress')
      .argument('[session]', SESSION_ARG_OR_PICK, sessionArgument)
      .argument('[message...]', 'the message ("-" reads standard input)')
      .option('--agent-profile <uuid>', 'an existing agent profile for this turn', uuidOption)
      .option('--agent-profile-file <file>', 'a JSON Profile object for this turn')
      .option('-y, --yes', 'interrupt a running turn without asking'),
  )
    .addHelpText(
      'after',
      `
Without --wait or --follow, <session-id>/<thread-id> is printed on stdout: what \`agents wait\` and
--thread read.
Examples:
  $ agents send last "Now add tests"
  $ ref=$(agents send "$SESSION" "Use the existing logger") && agents wait "$ref"
  $ agents send "$SESSION" --wait --timeout 20m "Fix the failing test"`,
    )
    .action(async (ref: SessionRef | undefined, words: string[], opts: SendOptions, cmd: Command) => {
      const flags = (await checks()).checkSend(words, opts);
      return run(cmd, async (ctx) => (await import('../commands/send/run.js')).send(ctx, ref, words, flags));
    });

  program
    .command('show')
    .description('print a session and its conversation, oldest first, grouped by turn')
    .argument('[session]', SESSION_ARG_OR_PICK, sessionArgument)
    .option('--thread <thread>', THREAD_OPT, threadOptionArg)
    .option('--tools', 'include tool calls')
    .addOption(
      new Option('--limit <n>', 'the newest N messages (default 50)')
        .argParser(intOption(1, 100_000))
        .conflicts('all'),
    )
    .option('--all', 'every message')
    .option('--verbose', 'on a terminal: the ids of the session, its turns and messages')
    .option(
      '--no-pager',
      'on a terminal: never page (default: AGENTS_PAGER, PAGER, or less -FRX when taller than the screen)',
    )
    .option('--web', 'open the session in the browser instead (its address is printed where none opens)')
    .option('--timeout <duration>', READ_TIMEOUT, durationOption)
    .addHelpText(
      'after',
      `\nExamples:\n  $ agents show last\n  $ agents show last --web\n  $ agents show "$SESSION" --all --json > session.json`,
    )
    .action(
      (
        ref: SessionRef | undefined,
        opts: Omit<ShowFlags, 'thread'> & { thread?: ThreadOption },
        cmd: Command,
      ) =>
        run(cmd, async (ctx) =>
          (await import('../commands/show/run.js')).show(ctx, ...threadFlags<ShowFlags>(ref, opts)),
        ),
    );

  program
    .command('tail')
    .description('print the last messages, then follow new ones as they land')
    .argument('[session]', SESSION_ARG_OR_PICK, sessionArgument)
    .option('-n, --lines <n>', 'how many existing messages to print first', intOption(0, 10_000), 10)
    .option('--thread <thread>', THREAD_OPT, threadOptionArg)
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
    .action(
      (
        ref: SessionRef | undefined,
        opts: Omit<TailFlags, 'thread'> & { thread?: ThreadOption },
        cmd: Command,
      ) =>
        run(cmd, async (ctx) =>
          (await import('../commands/tail/run.js')).tail(ctx, ...threadFlags<TailFlags>(ref, opts)),
        ),
    );

  program
    .command('wait')
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
    .addHelpText(
      'after',
      `
A session alone waits for its latest turn (the one in progress, or the last one if it has ended).
Piped, each reply is printed followed by a newline; on a terminal under a line naming its session, with
a status line per session on stderr. --json: one {"session", "thread", "message"} per line.
With --output-dir, DIR/<session-id>-<thread-id>.md when several threads of one session are waited on.
Exit 0 when every reply has come; 124 when --timeout ran out first (the ones still pending and the
command that resumes them on stderr); else the first failure's code, once the others are done.
Examples:
  $ for t in tasks/*.md; do agents create -a claude --file "$t"; done | agents wait --output-dir replies/
  $ agents wait "$S1" "$S2" --timeout 30m --json
  $ ref=$(agents send "$SESSION" "Now add tests") && agents wait "$ref"`,
    )
    .action((refs: WaitRef[] | undefined, opts: WaitFlags, cmd: Command) =>
      run(cmd, async (ctx) => (await import('../commands/wait/run.js')).wait(ctx, refs ?? [], opts)),
    );

  program
    .command('chat')
    .description('a conversation with an agent at the terminal: type, watch it work, reply')
    .argument('[session]', `continue this session (${SESSION_ARG})`, sessionArgument)
    .addOption(
      new Option('-a, --agent <name>', 'agent of a new session (env AGENTS_AGENT, config "agent")').choices(
        CORE_AGENTS,
      ),
    )
    .option('--agent-id <uuid>', 'a specific agent of the workspace', uuidOption)
    .option('--agent-profile <uuid>', 'an existing agent profile', uuidOption)
    .option('--agent-profile-file <file>', 'a JSON Profile object')
    .option('--private', 'hide new sessions from other workspace members')
    .option('-y, --yes', 'send a follow-up that interrupts a running turn without asking')
    .option('--notify', 'ring the bell when a turn ends')
    .option('-n, --turns <n>', 'turns of a continued session to show first', intOption(0, 1000), 3)
    .addHelpText(
      'after',
      `
Enter sends (a running turn is interrupted, after a y); \\ then Enter, or Alt-Enter, starts a new line;
a paste is one message. /help lists the commands (/new, /show, /open, /plan, /copy, /save FILE, /quit).
Ctrl-C clears the line, and on an empty line leaves (so does Ctrl-D), printing how to come back.
Only on a terminal: scripts and CI use create/send --wait (exit 2 here).
Examples:
  $ agents chat -a claude
  $ agents chat last`,
    )
    .action(async (ref: SessionRef | undefined, opts: ChatOptions, cmd: Command) => {
      const flags = (await checks()).checkChat(opts);
      return run(cmd, async (ctx) => (await import('../commands/chat/run.js')).chat(ctx, ref, flags));
    });

  // ── plans and artifacts ──
  program
    .command('plan')
    .description('print the latest plan the agent wrote (markdown)')
    .argument('[session]', SESSION_ARG_OR_PICK, sessionArgument)
    .option('-o, --output <file>', 'write it to FILE instead of stdout')
    .option('--timeout <duration>', READ_TIMEOUT, durationOption)
    .addHelpText(
      'after',
      `
With --json: {"artifact": {…}, "text": "…markdown…"}. Exit 4 when the session has no plan.
Examples:
  $ agents plan last
  $ agents plan "$SESSION" -o plan.md`,
    )
    .action(async (ref: SessionRef | undefined, opts: ArtifactFlags, cmd: Command) => {
      const flags = (await checks()).checkDownload(opts);
      return run(cmd, async (ctx) => (await import('../commands/plan/run.js')).plan(ctx, ref, flags));
    });
  program
    .command('artifact')
    .description('download one artifact of a session (a plan iteration or a file)')
    .argument('<session>', SESSION_ARG, sessionArgument)
    .argument('<artifact-id>', "the artifact's id (a UUID)", uuidOption)
    .option('-o, --output <file>', 'write it to FILE instead of stdout')
    .option('--timeout <duration>', READ_TIMEOUT, durationOption)
    .addHelpText(
      'after',
      `
The download link is presigned and on another host: it is fetched without the API key.
With --json: the artifact's record (name, size, type, link).
Examples:
  $ agents artifact "$SESSION" "$ARTIFACT" -o report.pdf`,
    )
    .action(async (ref: SessionRef, artifactId: string, opts: ArtifactFlags, cmd: Command) => {
      const flags = (await checks()).checkDownload(opts);
      return run(cmd, async (ctx) =>
        (await import('../commands/artifact/run.js')).artifact(ctx, ref, artifactId, flags),
      );
    });

  // ── finding sessions again: ls, open, completion ──
  program
    .command('ls')
    .description('list the sessions this machine created or sent to (this profile), latest first')
    .addOption(
      new Option('--limit <n>', 'at most N sessions (default 20)')
        .argParser(intOption(1, MAX_SESSIONS))
        .default(20),
    )
    .option('--refresh', 'ask the service for the title and state of each one listed (3 requests each)')
    .addHelpText(
      'after',
      `
The API cannot list sessions: agents keeps the last ${MAX_SESSIONS} this machine created or sent to, per profile.
Piped: one line each, tab-separated (id, title, agent, state, created); --json: an array.
Examples:
  $ agents ls
  $ agents ls --refresh --limit 5
  $ agents ls --json | jq -r '.[0].id'`,
    )
    .action((opts: LsFlags, cmd: Command) =>
      run(cmd, async (ctx) => (await import('../commands/ls/run.js')).ls(ctx, opts)),
    );
  program
    .command('open')
    .description('open a session in the browser (its address is printed where no browser can start)')
    .argument('[session]', SESSION_ARG_OR_PICK, sessionArgument)
    .addHelpText(
      'after',
      `
No browser is started under CI, over SSH or without a display: the address is printed on stdout instead.
Examples:
  $ agents open last
  $ agents open "$SESSION"`,
    )
    .action((ref: SessionRef | undefined, _opts, cmd: Command) =>
      run(cmd, async (ctx) => (await import('../commands/open/run.js')).open(ctx, ref)),
    );
  program
    .command('completion')
    .description('print a completion script for bash, zsh or fish')
    .addArgument(new Argument('<shell>', 'bash, zsh or fish').choices(SHELLS))
    .addHelpText(
      'after',
      `
Commands, options, agent names, and session ids from \`agents ls\` complete with Tab.
Examples:
  $ source <(agents completion bash)          # in ~/.bashrc
  $ source <(agents completion zsh)           # in ~/.zshrc (after compinit)
  $ agents completion fish > ~/.config/fish/completions/agents.fish`,
    )
    .action((shell: (typeof SHELLS)[number], _opts, cmd: Command) =>
      run(cmd, async () => (await import('../commands/completion/run.js')).completion(program, shell)),
    );
  // What the completion scripts call for session ids (the state file alone: no request, no key needed).
  program
    .command('__complete', { hidden: true })
    .argument('<what>')
    .action((what: string, _opts, cmd: Command) =>
      run(cmd, async (ctx) => (await import('../commands/completion/run.js')).completeWords(ctx, what)),
    );

  program
    .command('help')
    .description('display help for a command')
    .argument('[command...]', 'the command, and a subcommand of it')
    .action((names: string[]) => {
      let target = program;
      for (const name of names) {
        const next = target.commands.find((c) => c.name() === name || c.aliases().includes(name));
        if (next === undefined) {
          // The same error as running the unknown command itself, with its suggestion.
          target.args = [name];
          (target as Unknowing).unknownCommand();
        }
        target = next!;
      }
      target.help();
    });

  return program;
}

/**
 * Words people type for our commands (kubectl's `logs`, gh's `view`): commander's suggestions go by
 * spelling alone and would offer `login` for `logs`.
 */
const SYNONYMS: Record<string, string> = {
  logs: 'tail',
  log: 'tail',
  follow: 'tail',
  watch: 'tail',
  new: 'create',
  start: 'create',
  run: 'create',
  reply: 'send',
  message: 'send',
  view: 'show',
  get: 'show',
  cat: 'show',
  status: 'show',
};

/** commander's method that reports `args[0]` as an unknown command (with its suggestion); not in its types. */
type Unknowing = Command & { unknownCommand(): never };

function suggestSynonyms(program: Command): void {
  const cmd = program as Unknowing;
  const builtIn = cmd.unknownCommand.bind(cmd);
  cmd.unknownCommand = function unknownCommand(this: Command) {
    const name = this.args[0] ?? '';
    const synonym = Object.hasOwn(SYNONYMS, name) ? SYNONYMS[name] : undefined;
    if (synonym === undefined || !this.commands.some((c) => c.name() === synonym)) return builtIn();
    this.error(`error: unknown command '${name}'\n(Did you mean ${synonym}?)`, {
      code: 'commander.unknownCommand',
    });
  };
}
