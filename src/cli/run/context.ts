// What every command receives, built once per run from the IO and the global flags. Commands use it
// instead of `process`, and never write to stdout: they return data for the presenter.
import { createStatusLines } from '../output/status-lines.js';
import type { ApiClient } from '../../core/api/client.js';
import type { IO } from '../../core/io/io.js';
import { debugFromEnv, sharedPacingFromEnv } from '../../core/config/env.js';
import { budgetDir, type BudgetSettings } from '../../core/config/client-from-settings.js';
import { openConfigFile, type ConfigFile } from '../../core/config/config-file.js';
import type { KeyStoreOptions } from '../../core/config/key-store.js';
import {
  requireConnection,
  resolveProfile,
  resolveSettings,
  type KeyReading,
  type SettingName,
  type Settings,
} from '../../core/config/settings.js';
import { openStateFile, type StateFile } from '../../core/state/state-file.js';
import type { History } from '../../core/state/history.js';
import { historyFor } from '../../core/state/history-for.js';
import { recordTurnEnds, type TurnEnds } from '../../core/state/turn-ends.js';
import { detectTerminal, type TerminalCaps } from '../output/terminal.js';
import { createStyle } from '../output/style.js';
import { createLogger, Stderr } from '../output/stderr.js';
import { createProgress } from '../output/progress.js';
import type { StatusLines } from '../output/status-lines.js';
import type { PresentContext } from '../output/printer.js';
import { createPrompts, type Prompts } from '../output/prompts.js';
import type { Profiles } from '../../core/config/config-file.js';
import { DEFAULT_SCHEDULE, type ScheduleOptions } from '../../core/poll/schedule.js';
import { clientMaker, type ClientFor, type ListedOn } from './api-clients.js';

/** Global options declared on the program in cli.ts. */
export interface GlobalOptions {
  profile?: string;
  baseUrl?: string;
  json?: boolean;
  quiet?: boolean;
  /** commander's negation of `--no-color`: false when the flag was given. */
  color?: boolean;
  debug?: boolean;
}

/**
 * The run's environment as a command sees it: what the presenter prints with (the streams, styles, stderr,
 * progress and status lines), and the run's signal, prompts, files, settings and client.
 */
export interface Context extends PresentContext {
  globals: GlobalOptions;
  /** Aborted on Ctrl-C, SIGTERM or a closed stdout (see IO.signal). */
  signal: AbortSignal;
  /** Questions for a person; undefined when nobody can answer (no terminal, CI). */
  prompts: Prompts | undefined;
  debug: boolean;
  config: ConfigFile;
  /** What the keychain's calls of the run need (its environment, its bound). */
  keyStore: KeyStoreOptions;
  state: StateFile;
  /** The poll schedule (tests make it fast). */
  schedule: ScheduleOptions;
  /**
   * The settings named in `need` (all by default); the config file is read at most once per run. The key,
   * when needed, from wherever the profile keeps it (`reading.keychain: false`: not from the keychain).
   */
  settings(need?: readonly SettingName[], reading?: Pick<KeyReading, 'keychain'>): Promise<Settings>;
  /** The config profile in effect (--profile > AGENTS_PROFILE > default), with no file read. */
  profile(): string;
  /** What this machine recorded for the profile on the run's base URL (`last`, `ls`, completion). */
  history(): Promise<History>;
  /** The run's API client for the configured base URL and key (made once, when first asked for). */
  client(): Promise<ApiClient>;
  /** A client for another base URL or key (login checks a key before storing it). */
  clientFor: ClientFor;
  /** Stops whatever the run left on the terminal (a spinner) before the last lines are written. */
  close(): void;
}

/** What the terminal can do, from the IO and the flags. */
function capsOf(io: IO, globals: GlobalOptions): TerminalCaps {
  return detectTerminal({
    env: io.env,
    stdinIsTTY: io.stdinIsTTY ?? io.stdin.isTTY === true,
    stdoutIsTTY: io.stdout.isTTY === true,
    stderrIsTTY: io.stderr.isTTY === true,
    stdoutColumns: io.stdout.columns,
    stderrColumns: io.stderr.columns,
    colorFlag: globals.color !== false,
    quiet: globals.quiet === true,
  });
}

/** Where this machine keeps its keys' budgets (`agents budget` reads them there). */
export function pacingDir(io: IO): string {
  return budgetDir(io.env, io.runtime.platform);
}

/**
 * Every agents process on the machine that uses one key shares its budget through a file in the state
 * directory; tests that turn pacing off, and the benchmark's uncoordinated runs, pace nothing / alone.
 */
function budgetOf(io: IO, label: string | undefined): BudgetSettings | false {
  if (io.tuning?.pacing === false) return false;
  return { shared: sharedPacingFromEnv(io.env), ...(label !== undefined ? { label } : {}) };
}

/**
 * Builds the Context of one run: the terminal's capabilities and styles, stderr (logger, progress), the
 * prompts when a person is there to answer, the settings and an API client made on first use.
 */
export async function createContext(
  io: IO,
  globals: GlobalOptions,
  /** What the run is (a command and its option names), written beside its entries in the shared budget. */
  label?: string,
): Promise<Context> {
  const { env } = io;
  const quiet = globals.quiet === true;
  const caps = capsOf(io, globals);
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
  const settings = (need?: readonly SettingName[], reading?: Pick<KeyReading, 'keychain'>) =>
    resolveSettings(globals, env, readProfiles, need, {
      ...reading,
      keychainTimeoutMs: io.tuning?.keychainTimeoutMs,
    });
  const budget = budgetOf(io, label);
  let client: Promise<ApiClient> | undefined;
  let history: Promise<History> | undefined;
  const readHistory = () =>
    (history ??= settings(['baseUrl']).then((s) => historyFor(state, s, readProfiles)));
  // Every turn's end a client of the run sees on the run's service is recorded for `agents ls`, whichever
  // command reads it (a wait, tail, show, chat's poller, checkout).
  let turnEnds: TurnEnds | undefined;
  const onListed: ListedOn = async (baseUrl, target, messages) => {
    const h = await readHistory().catch(() => undefined);
    if (h === undefined || h.baseUrl !== baseUrl) return;
    await (turnEnds ??= recordTurnEnds(h))(target, messages);
  };
  const clientFor = clientMaker(io, caps, log, debug, budget, onListed);
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
    statusLines() {
      return Promise.resolve(
        (status ??= createStatusLines(caps, { stream: io.stderr, stderr, style: styleErr })),
      );
    },
    prompts,
    debug,
    config,
    keyStore: { env, timeoutMs: io.tuning?.keychainTimeoutMs },
    state,
    schedule: { ...DEFAULT_SCHEDULE, ...io.tuning?.schedule },
    settings,
    profile: () => resolveProfile(globals, env).profile,
    history: readHistory,
    client: () =>
      (client ??= (async () => {
        // The warning: a key about to travel over plain http to a host that is not loopback.
        const s = await settings(['apiKey', 'baseUrl', 'budgetUrl']);
        const connection = requireConnection(s, (w) => log.warn(w));
        return clientFor({ ...connection, ...(s.budgetUrl !== undefined ? { budgetUrl: s.budgetUrl } : {}) });
      })()),
    clientFor,
    close: () => {
      progress.stop();
      status?.stop();
    },
  };
}
