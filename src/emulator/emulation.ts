// What one running emulator is made of (its keys and gateway, the store and its clocks, the artifact host)
// and what a test changes while it runs, set up from the options before it listens.
import { FaultPicker } from './faults.js';
import { Gateway, RateLimiter } from './gateway.js';
import { Store } from './store.js';
import { HeldClock, Timers } from './turn-clock.js';
import type { TurnEnv } from './turn-player.js';
import { DIALECTS, type Dialect } from './dialect.js';
import { startArtifactHost, type ArtifactHost } from './artifact-host.js';
import type { Misbehaviour } from './misbehave.js';
import type { RepeatedParams } from './validate.js';
import type { EmulatorKey, EmulatorOptions, EmulatorStats } from './surface.js';

/** The documented development key, accepted when no keys are given. */
export const DEV_KEY: EmulatorKey = { key: 'agents-dev-key', workspace: 'dev' };

export const emptyStats = (): EmulatorStats => ({
  requests: 0,
  byRoute: {},
  sessionsCreated: 0,
  followUps: 0,
  rejected429: 0,
  faultsInjected: 0,
});

/** One running emulator's parts, shared by its request pipeline, its handlers and the controls a test holds. */
export interface Emulation {
  readonly opts: EmulatorOptions;
  readonly keys: EmulatorKey[];
  readonly dialect: Dialect;
  readonly gateway: Gateway;
  readonly store: Store;
  readonly turns: TurnEnv;
  /** Real timers: faults' delays always, and turns unless they are held. */
  readonly timers: Timers;
  /** The clock a test moves, with turns: 'held'. */
  readonly held: HeldClock | undefined;
  /** Presigned downloads come from another origin, as the service's come from its storage provider. */
  readonly artifactHost: ArtifactHost;
  readonly maxBodyBytes: number;
  readonly artifactTtlMs: number;
  stats: EmulatorStats;
  repeatedParams: RepeatedParams;
  misbehave: Misbehaviour;
  faults: FaultPicker | undefined;
  /** GETs that trickled so far (Misbehaviour.trickle.requests counts them). */
  trickled: number;
  /** Whether the one 429 of the dialect's `firstListRateLimited` is still to come. */
  listLimitDue: boolean;
  /**
   * What requests moved turns on by (turnMsPerRequest) is not stamped: those messages land when the request
   * that moved them was answered, in real time; only a test's own advanceTurns moves the stamps on.
   */
  readonly unstamped: { ms: number };
  /** The address it listens on, once it does. */
  listening: string;
}

/** The parts of an emulator with these (checked) options; its artifact host already listens. */
export async function setUpEmulation(opts: EmulatorOptions): Promise<Emulation> {
  const limit = opts.rateLimit ?? { limit: 100, windowMs: 60_000 };
  const keys = (opts.keys ?? [DEV_KEY]).map((k) => ({ ...k }));
  const dialect = DIALECTS[opts.dialect ?? 'spec'];
  // Turns run on real timers or on a clock the test moves, and what the store stamps moves with it, so a
  // turn held for a minute has the created_at and ts of one.
  const timers = new Timers();
  const held = opts.turns === 'held' ? new HeldClock() : undefined;
  const unstamped = { ms: 0 };
  const now = held ? () => Date.now() + held.elapsed - unstamped.ms : Date.now;
  const store = new Store(now, dialect.countedIds);
  const faults = opts.faults ? new FaultPicker(opts.faults) : undefined; // before anything listens: it may throw
  return {
    opts,
    keys,
    dialect,
    gateway: new Gateway(keys, limit ? new RateLimiter(limit.limit, limit.windowMs) : undefined, dialect),
    store,
    turns: {
      store,
      timers: held ?? timers,
      timeScale: held ? 1 : (opts.timeScale ?? 1),
      dialect,
      notice: opts.onNotice,
    },
    timers,
    held,
    artifactHost: await startArtifactHost(store, opts.host ?? '127.0.0.1'),
    maxBodyBytes: opts.maxBodyBytes ?? 2 * 1024 * 1024,
    artifactTtlMs: opts.artifactTtlMs ?? 6 * 86_400_000,
    stats: emptyStats(),
    repeatedParams: opts.repeatedParams ?? (dialect.name === 'spec' ? 'first' : 'all'),
    misbehave: { ...opts.misbehave },
    faults,
    trickled: 0,
    listLimitDue: dialect.firstListRateLimited,
    unstamped,
    listening: '',
  };
}
