// What every command receives, built once per run from the IO and the global flags. Commands use it
// instead of `process`, and never write to stdout: they return data for the presenter.
import type { ApiClient } from '../../core/api/client.js';
import type { IO } from '../../core/io/io.js';
import { debugFromEnv, sharedPacingFromEnv } from '../../core/config/env.js';
import { budgetDir } from '../../core/config/client-from-settings.js';
import { openConfigFile, type ConfigFile, type Profiles } from '../../core/config/config-file.js';
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
import { detectTerminal } from '../output/terminal.js';
import { createStyle } from '../output/style.js';
import { createLogger, Stderr } from '../output/stderr.js';
import { createProgress } from '../output/progress.js';
import { createStatusLines, type StatusLines } from '../output/status-lines.js';
import type { PresentContext } from '../output/printer.js';
import { createPrompts, type Prompts } from '../output/prompts.js';
import { DEFAULT_SCHEDULE, type ScheduleOptions } from '../../core/poll/schedule.js';
import { clientMaker, type ClientFor, type ListedOn } from './api-clients.js';

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
  /** A client for another base URL or key (login checks a key before storing it). */
  clientFor: ClientFor;
  /** Stops what the run left on the terminal (a spinner) before the last lines are written. */
  close(): void;
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
export async function createContext(io: IO, globals: GlobalOptions, label?: string): Promise<Context> {
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
  const budget = io.tuning?.pacing !== false && {
    shared: sharedPacingFromEnv(env),
    ...(label !== undefined && { label }),
  };
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
