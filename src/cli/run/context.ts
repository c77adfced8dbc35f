// What every command receives, built once per run from the IO and the global flags, with its API clients
// (their notices on stderr). Commands use it instead of `process`; they return data, never write to stdout.
import {
  type ApiClient,
  budgetDir,
  type BudgetSettings,
  clientFromSettings,
  type ClientOptions,
  type ConfigFile,
  debugFromEnv,
  DEFAULT_SCHEDULE,
  type History,
  historyFor,
  type IO,
  type KeyReading,
  type KeyStoreOptions,
  maxResponseFromEnv,
  openConfigFile,
  openStateFile,
  type Profiles,
  rateLimitFromEnv,
  recordTurnEnds,
  requestTimeouts,
  requireConnection,
  resolveProfile,
  resolveSettings,
  type RetryNotice,
  type ScheduleOptions,
  type SettingName,
  type Settings,
  sharedPacingFromEnv,
  type StateFile,
  type TurnEnds,
} from '../../core/index.js';
import { detectTerminal, type TerminalCaps } from '../output/terminal.js';
import { createStyle } from '../output/style.js';
import { createLogger, type Logger, Stderr } from '../output/stderr.js';
import { createProgress } from '../output/progress.js';
import { createStatusLines, type StatusLines } from '../output/status-lines.js';
import type { PresentContext } from '../output/printer.js';
import { createPrompts, type Prompts } from '../output/prompts.js';
import { formatDuration } from '../../util/duration.js';

/** Global options declared on the program (program/root.ts). */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  json?: boolean;
  quiet?: boolean;
  /** commander's negation of `--no-color`: false when the flag was given. */
  color?: boolean;
  debug?: boolean;
}

/** The run as a command sees it: what the presenter prints with, the prompts, files, settings and client. */
export interface Context extends PresentContext {
  globals: GlobalOptions;
  /** Aborted on Ctrl-C, SIGTERM or a closed stdout. */
  signal: AbortSignal;
  /** Questions for a person; undefined when nobody can answer (no terminal, CI). */
  prompts: Prompts | undefined;
  debug: boolean;
  config: ConfigFile;
  keyStore: KeyStoreOptions;
  state: StateFile;
  schedule: ScheduleOptions;
  /** The settings in `need` (default all), the config file read once a run; `keychain: false`: no keychain. */
  settings(need?: readonly SettingName[], reading?: Pick<KeyReading, 'keychain'>): Promise<Settings>;
  /** The config profile in effect (--profile > AGENTS_PROFILE > default), with no file read. */
  profile(): string;
  /** What this machine recorded for the profile on the run's base URL (`last`, `ls`, completion). */
  history(): Promise<History>;
  /** The run's API client (made once, when first asked for). */
  client(): Promise<ApiClient>;
  /** A client for another base URL or key (login checks a key before storing it), with the run's settings. */
  clientFor(
    options: Pick<ClientOptions, 'baseUrl' | 'apiKey'> & Partial<ClientOptions> & { budgetUrl?: string },
  ): ApiClient;
  /** Stops what the run left on the terminal (a spinner) before the last lines are written. */
  close(): void;
}

/** Off a terminal, a call failing this long is said on stderr (a CI log shows why a step is slow)... */
const QUIET_RETRY_MS = 5000;
/** ...at most this often. */
const TOLD_EVERY_MS = 30_000;

/** The line of a retry: why, when, and what ends the retries. */
function retryLine(n: RetryNotice): string {
  const left = formatDuration(n.leftMs ?? 0);
  const until = n.rateLimited
    ? n.bound === 'deadline'
      ? 'the key is busy: until it is not, or the --timeout'
      : `the key is busy: for up to ${left} more; --timeout sets another bound`
    : n.bound === 'deadline'
      ? 'until the --timeout'
      : n.bound === 'outage'
        ? `the service may be restarting: for up to ${left} more`
        : `${n.attempt} of ${n.maxRetries}`;
  return `${n.reason}; retrying in ${formatDuration(n.delayMs)} (${until})`;
}

/** Makes the run's API clients: its settings from the environment, its notices (retries, pacing, a foreign
 * message) on stderr, the turns' ends they see in the run's history. */
function clientMaker(
  io: IO,
  caps: TerminalCaps,
  log: Logger,
  debug: boolean,
  budget: BudgetSettings | false,
  readHistory: () => Promise<History>,
): Context['clientFor'] {
  const { env } = io;
  let turnEnds: TurnEnds | undefined;
  // A server whose filter let another session's or thread's message through: said once a run, on stderr
  // (the message itself is dropped by the client).
  let toldForeign = false;
  // Off a terminal, when a call has been failing QUIET_RETRY_MS (the run's clock, not the test's).
  let toldRetryAt = Number.NEGATIVE_INFINITY;
  const onRetry = (n: RetryNotice) => {
    if (!caps.stderrIsTTY) {
      const now = Date.now();
      if ((n.failingForMs ?? 0) < QUIET_RETRY_MS || now - toldRetryAt < TOLD_EVERY_MS) return;
      toldRetryAt = now;
    }
    log.warn(retryLine(n));
  };
  const onForeign: ClientOptions['onForeign'] = ({ why, target }) => {
    if (toldForeign) return;
    toldForeign = true;
    const asked = why === 'session' ? `session ${target.sessionId}` : `thread ${target.threadId}`;
    log.warn(`the service listed messages of another ${why} than ${asked}; they were left out`);
  };
  return ({ baseUrl, apiKey, budgetUrl, ...overrides }) => {
    const rate = rateLimitFromEnv(env);
    return clientFromSettings(
      {
        baseUrl,
        apiKey,
        env,
        platform: io.runtime.platform,
        product: 'agents',
        nodeVersion: io.runtime.nodeVersion,
        limits: { ...requestTimeouts(env), maxResponseBytes: maxResponseFromEnv(env) },
        // A fleet's budget in Redis, where one is configured: shared by every machine on the key.
        budget: budget && {
          ...budget,
          ...(rate !== undefined && { limit: rate }),
          ...(budgetUrl !== undefined && { url: budgetUrl }),
        },
        ...(io.tuning && { tuning: io.tuning }),
        hooks: {
          onForeign,
          ...(debug && { debug: (line: string) => log.debug(line) }),
          // A person at a terminal sees why nothing happens while a request is retried; a log, a long outage.
          onRetry,
          ...(caps.stderrIsTTY && {
            onPaced: ({ limit }: { limit: number }) =>
              log.info(
                `waiting for a request slot: ${limit} requests a minute for this key${rate === undefined ? '' : ' (AGENTS_RATE_LIMIT)'}, and the last minute has used them (this process and any other agents process on this machine)`,
              ),
          }),
          onBudget: { fallback: (m) => log.warn(m), repair: (m) => log.warn(m), rejoin: (m) => log.info(m) },
          // Every turn's end a client of the run sees on the run's service is recorded for `agents ls`,
          // whichever command reads it (a wait, tail, show, chat's poller, checkout).
          onListed: async (target, messages) => {
            const h = await readHistory().catch(() => undefined);
            if (h === undefined || h.baseUrl !== baseUrl) return;
            await (turnEnds ??= recordTurnEnds(h))(target, messages);
          },
        },
      },
      overrides,
    );
  };
}

/** Where this machine keeps its keys' budgets (`agents budget` reads them there). */
export function pacingDir(io: IO): string {
  return budgetDir(io.env, io.runtime.platform);
}

/** The run's key and base URL (with a warning for a key bound for plain http off loopback) and budget URL. */
export async function connectionOf(ctx: Pick<Context, 'settings' | 'log'>) {
  const s = await ctx.settings(['apiKey', 'baseUrl', 'budgetUrl']);
  return { ...requireConnection(s, (w) => ctx.log.warn(w)), budgetUrl: s.budgetUrl };
}

/** `label`: the run's command and option names, written beside its entries in the shared budget. */
export async function createContext(io: IO, globals: GlobalOptions, label: string): Promise<Context> {
  const { env } = io;
  const quiet = globals.quiet === true;
  const caps = detectTerminal({
    env,
    stdinIsTTY: io.stdinIsTTY ?? io.stdin.isTTY === true,
    stdoutIsTTY: io.stdout.isTTY === true,
    stderrIsTTY: io.stderr.isTTY === true,
    stdoutColumns: io.stdout.columns,
    stderrColumns: io.stderr.columns,
    colorFlag: globals.color !== false,
    quiet,
  });
  const [styleOut, styleErr] = await Promise.all([createStyle(caps.colorOut), createStyle(caps.colorErr)]);
  const debug = globals.debug === true || debugFromEnv(env);
  const stderr = new Stderr(io.stderr);
  const log = createLogger({ quiet, debug, stderr, style: styleErr });
  const progress = createProgress(
    caps,
    quiet,
    { stream: io.stderr, stderr, color: caps.colorErr },
    { log, heartbeatMs: io.tuning?.heartbeatMs },
  );
  const prompts = caps.interactive
    ? createPrompts({ input: io.stdin, output: io.stderr, signal: io.signal })
    : undefined;
  const config = openConfigFile(env);
  const state = openStateFile(env, io.runtime.platform, io.tuning?.lockWaitMs);

  let profiles: Promise<Profiles> | undefined;
  const readProfiles = () => (profiles ??= config.profiles());
  const keychainTimeoutMs = io.tuning?.keychainTimeoutMs;
  const settings = (need?: readonly SettingName[], reading?: Pick<KeyReading, 'keychain'>) =>
    resolveSettings(globals, env, readProfiles, need, { ...reading, keychainTimeoutMs });
  // Every agents process on the machine that uses one key shares its budget through a file in the state
  // directory; tests that turn pacing off, and the benchmark's uncoordinated runs, pace nothing / alone.
  const budget = io.tuning?.pacing !== false && { shared: sharedPacingFromEnv(env), label };
  let client: Promise<ApiClient> | undefined;
  let history: Promise<History> | undefined;
  const readHistory = () =>
    (history ??= settings(['baseUrl']).then((s) => historyFor(state, s, readProfiles)));
  const clientFor = clientMaker(io, caps, log, debug, budget, readHistory);
  let status: StatusLines | undefined;

  return {
    io,
    globals,
    caps,
    signal: io.signal,
    styleOut,
    styleErr,
    stderr,
    log,
    progress,
    statusLines: () =>
      Promise.resolve((status ??= createStatusLines(caps, { stream: io.stderr, stderr, style: styleErr }))),
    prompts,
    debug,
    config,
    keyStore: { env, timeoutMs: keychainTimeoutMs },
    state,
    schedule: { ...DEFAULT_SCHEDULE, ...io.tuning?.schedule },
    settings,
    profile: () => resolveProfile(globals, env).profile,
    history: readHistory,
    client: () => (client ??= connectionOf({ settings, log }).then(clientFor)),
    clientFor,
    close: () => {
      progress.stop();
      status?.stop();
    },
  };
}
