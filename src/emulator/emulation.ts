// What one running emulator is made of (its keys and gateway, the store and its clocks, the artifact host)
// and what a test changes while it runs, set up from the options before it listens.
import { FaultPicker } from './faults.js';
import { gateway } from './gateway.js';
import { Store } from './store.js';
import { HeldClock, Timers, type TurnClock } from './turn-clock.js';
import { DIALECTS } from './dialect.js';
import { startArtifactHost } from './artifact-host.js';
import type { Misbehaviour } from './misbehave.js';
import type { RepeatedParams } from './validate.js';
import { emptyStats, type EmulatorKey, type EmulatorOptions } from './surface.js';

/** The documented development key, accepted when no keys are given. */
export const DEV_KEY: EmulatorKey = { key: 'agents-dev-key', workspace: 'dev' };

/** One running emulator's parts, shared by its request pipeline, its handlers and the controls a test holds. */
export type Emulation = Awaited<ReturnType<typeof setUpEmulation>>;

/** The parts of an emulator with these (checked) options; its artifact host already listens. */
export async function setUpEmulation(opts: EmulatorOptions) {
  const keys = (opts.keys ?? [DEV_KEY]).map((k) => ({ ...k }));
  const dialect = DIALECTS[opts.dialect ?? 'spec'];
  // Turns run on real timers or on a clock the test moves, and what the store stamps moves with it, so a
  // turn held for a minute has the created_at and ts of one.
  const timers = new Timers();
  const held = opts.turns === 'held' ? new HeldClock() : undefined;
  // What requests moved turns on by (turnMsPerRequest) is not stamped: those messages land when the request
  // that moved them was answered, in real time; only a test's own advanceTurns moves the stamps on.
  const unstamped = { ms: 0 };
  const store = new Store(
    held ? () => Date.now() + held.elapsed - unstamped.ms : Date.now,
    dialect.countedIds,
  );
  const faults = opts.faults ? new FaultPicker(opts.faults) : undefined; // may throw: before any listening
  const clock: TurnClock = held ?? timers;
  const repeatedParams: RepeatedParams = opts.repeatedParams ?? (dialect.name === 'spec' ? 'first' : 'all');
  const misbehave: Misbehaviour = { ...opts.misbehave };
  return {
    opts,
    keys,
    dialect,
    gate: gateway(keys, opts.rateLimit, dialect),
    store,
    /** Real timers: faults' delays always, and turns unless they are held. */
    timers,
    /** The clock a test moves, with turns: 'held'. */
    held,
    /** What turns run on: the held clock, or the real timers (scaled). */
    clock,
    timeScale: held ? 1 : (opts.timeScale ?? 1),
    unstamped,
    /** Presigned downloads come from another origin, as the service's come from its storage provider. */
    artifactHost: await startArtifactHost(store, opts.host ?? '127.0.0.1'),
    maxBodyBytes: opts.maxBodyBytes ?? 2 * 1024 * 1024,
    artifactTtlMs: opts.artifactTtlMs ?? 6 * 86_400_000,
    stats: emptyStats(),
    repeatedParams,
    misbehave,
    faults,
    /** GETs that trickled so far (Misbehaviour.trickle.requests counts them). */
    trickled: 0,
    /** Whether the one 429 of the dialect's `firstListRateLimited` is still to come. */
    listLimitDue: dialect.firstListRateLimited,
    listening: '',
  };
}
