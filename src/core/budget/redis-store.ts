// The fleet's budget: the state in one Redis key per origin and key (ioredis loads only when used).
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import {
  BrokenState,
  digestOf,
  emptyState,
  parseState,
  type BudgetKeyRef,
  type SharedState,
} from './state.js';
import type { BudgetStore } from './budget-store.js';
import { afterIo, sleep } from '../../util/sleep.js';
import { errorMessage } from '../../util/text.js';

export const KEY_PREFIX = 'agents:budget:';
/** How long connecting may take: a store that cannot be reached costs about this, once. */
const REDIS_TIMEOUT_MS = 1000;
/** A killed server fails at once; one starved by dozens of clients took over a second (a time-out: 429s). */
const COMMAND_TIMEOUT_MS = 3000;
/** Before another takes the lock over: at 3 s, stalled holders of 32 on a loaded 2-core machine fell back. */
const LOCK_TTL_MS = 10_000;
const LOCK_RETRY_MAX_MS = 100;
/** A wait past LOCK_TTL_MS is others ahead (32 on a loaded machine waited past 5 s), not a dead holder. */
const LOCK_WAIT_MS = 15_000;
/** Locks and reads: {1, time, value} or {0, time}; the value last, as it may be nil (a Lua array's end). */
const LOCK_AND_READ =
  "local t = redis.call('time') if redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2], 'NX') then return {1, t, redis.call('get', KEYS[2])} end return {0, t}";
const READ = "return {redis.call('time'), redis.call('get', KEYS[1])}";
const WRITE_AND_UNLOCK =
  "if redis.call('get', KEYS[1]) == ARGV[1] then redis.call('set', KEYS[2], ARGV[2], 'PX', ARGV[3]) redis.call('del', KEYS[1]) return 1 end return 0";
const UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";
const LOCKED = 'its budget stayed locked by other processes';
const LAPSED = 'this process held the budget past its lock';
/** Longer than any entry lives (window, lease, waiters): a fleet that stops leaves nothing behind. */
const KEY_TTL_MS = 3 * 60_000;
const MAX_VALUE_BYTES = 1 << 20;
const CLOCK_SAMPLES = 16;

/** `reply`, or "timed out" after `ms` of a silent server, not of a stall of this process (afterIo). */
export function answer<T>(reply: Promise<T>, ms = COMMAND_TIMEOUT_MS): Promise<T> {
  let cancel: () => void = () => undefined;
  const late = new Promise<never>((_, reject) => {
    cancel = afterIo(ms, () => reject(new Error('Command timed out')));
  });
  return Promise.race([reply, late]).finally(cancel);
}

function shownRedisUrl(url: string): string {
  const u = URL.parse(url);
  return u === null
    ? 'the configured Redis'
    : `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
}

export function budgetKey(origin: string, key: BudgetKeyRef): string {
  return KEY_PREFIX + digestOf(origin, key).slice(0, 32);
}

const ERROR_KINDS: [RegExp, string][] = [
  [/WRONGPASS|NOAUTH|NOPERM/, 'authentication failed (check the user and password of the budget URL)'],
  [/timed? ?out/i, 'timed out'],
  [/closed|connection/i, 'connection lost'],
];

/** A failure of the store as its kind only: a client's own message may name the host with its password. */
function storeError(where: string, err: unknown): Error {
  if (err instanceof BrokenState) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const raw = errorMessage(err);
  const known = [LOCKED, LAPSED].includes(raw) ? raw : ERROR_KINDS.find(([re]) => re.test(raw))?.[1];
  return new Error(`${where}: ${code ?? known ?? 'no answer'}`);
}

/** Changes run once, under a lock as the file's (a WATCH would run the bookkeeping twice on a conflict). */
export class RedisStore implements BudgetStore {
  readonly where: string;
  readonly recovers = true;
  private readonly key: string;
  private client: Promise<Redis> | undefined;
  /** The reason behind a bare "Connection is closed" (a wrong password). */
  private lastEvent: Error | undefined;
  /** The server's clock less ours (ms). */
  private offset = 0;
  private readonly readings: { offset: number; rtt: number }[] = [];

  constructor(
    private readonly url: string,
    origin: string,
    apiKey: BudgetKeyRef,
    /** Tests give a wrong one. */
    private readonly clock: () => number = Date.now,
  ) {
    this.where = shownRedisUrl(url);
    this.key = budgetKey(origin, apiKey);
  }

  async transact<T>(fn: (s: SharedState, now: number) => T): Promise<T> {
    return this.using(async (redis) => {
      const lock = `${this.key}:lock`;
      const token = randomBytes(8).toString('hex');
      const started = Date.now();
      // The lock held across one round trip: a process slow to be scheduled keeps the others one turn.
      let text: string | null;
      for (let attempt = 0; ; attempt += 1) {
        const [won, , value] = await this.timed<[number, unknown, string | null | undefined]>(
          () => redis.eval(LOCK_AND_READ, 2, lock, this.key, token, LOCK_TTL_MS),
          1,
        );
        if (won === 1) {
          text = value ?? null;
          break;
        }
        if (Date.now() - started > LOCK_WAIT_MS) throw new Error(LOCKED);
        // Jittered, up to 100 ms: dozens retrying every few ms took the CPU a stalled holder needed.
        await sleep(Math.random() * Math.min(2 ** attempt, LOCK_RETRY_MAX_MS));
      }
      let written = false;
      try {
        const s = this.parse(text);
        const out = fn(s, this.now());
        const ok = await answer(
          redis.eval(WRITE_AND_UNLOCK, 2, lock, this.key, token, JSON.stringify(s), KEY_TTL_MS),
        );
        written = true;
        // Held past its time to live, another may have written since: what this granted must not count.
        if (ok !== 1) throw new Error(LAPSED);
        return out;
      } finally {
        if (!written) await answer(redis.eval(UNLOCK, 1, lock, token)).catch(() => undefined);
      }
    });
  }

  now(): number {
    return this.clock() + this.offset;
  }

  async peek(): Promise<SharedState> {
    return (await this.stored()) ?? emptyState();
  }

  stored(): Promise<SharedState | undefined> {
    return this.using(async (redis) => {
      const [, value] = await this.timed<[unknown, string | null | undefined]>(
        () => redis.eval(READ, 1, this.key),
        0,
      );
      return value === null || value === undefined ? undefined : this.parse(value);
    });
  }

  /** Runs a script whose reply holds the server's time at `at`: our clock's offset is the shortest recent
   * round trip's (one made while this process stalled is off by up to the stall). */
  private async timed<R extends unknown[]>(run: () => Promise<unknown>, at: number): Promise<R> {
    const sent = this.clock();
    const reply = await answer(run());
    const back = this.clock();
    const time: unknown = Array.isArray(reply) ? reply[at] : undefined;
    const [sec = Number.NaN, usec = Number.NaN] = Array.isArray(time) ? time.map(Number) : [];
    if (!Number.isFinite(sec) || !Number.isFinite(usec))
      throw new BrokenState(`${this.where} answered without its time`);
    this.readings.push({ offset: sec * 1000 + usec / 1000 - (sent + back) / 2, rtt: back - sent });
    if (this.readings.length > CLOCK_SAMPLES) this.readings.shift();
    this.offset = this.readings.reduce((best, r) => (r.rtt <= best.rtt ? r : best)).offset;
    return reply as R;
  }

  private parse(text: string | null): SharedState {
    if (text === null) return emptyState();
    if (text.length > MAX_VALUE_BYTES)
      throw new BrokenState(`${this.where} holds something far larger than a budget`);
    try {
      return parseState(text);
    } catch (err) {
      throw new BrokenState(`${this.where} holds something that is not a budget under ${this.key}`, {
        cause: err,
      });
    }
  }

  /** Runs `op` on a connection, which keeps the process alive only meanwhile; a failed one is dropped. */
  private async using<T>(op: (redis: Redis) => Promise<T>): Promise<T> {
    const connection = (this.client ??= this.connect());
    let redis: Redis | undefined;
    try {
      redis = await connection;
      redis.stream.ref();
      return await op(redis);
    } catch (err) {
      // Only the connection that failed: another operation may have made a new one meanwhile.
      if (this.client === connection) this.drop();
      const reason = this.lastEvent ?? err;
      this.lastEvent = undefined;
      throw storeError(this.where, reason);
    } finally {
      redis?.stream?.unref();
    }
  }

  private async connect(): Promise<Redis> {
    // ioredis is CommonJS: a bundle's import() of it may give its exports as the default export only.
    const mod = await import('ioredis');
    const Redis = mod.Redis ?? (mod.default as unknown as { Redis: typeof mod.Redis }).Redis;
    const redis = new Redis(this.url, {
      lazyConnect: true,
      // The time-outs are answer()'s, which does not take a stall of ours for the server's silence.
      connectTimeout: 10 * REDIS_TIMEOUT_MS,
      // One try: the limiter decides when to come back (every few seconds), not a reconnect loop.
      retryStrategy: () => null,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      enableReadyCheck: false,
    });
    // An 'error' event with no listener would end the process; its text says why a command failed.
    redis.on('error', (err: Error) => (this.lastEvent = err));
    try {
      await answer(redis.connect(), REDIS_TIMEOUT_MS);
    } catch (err) {
      // Given up on (answer()'s time-out), it must not connect later and keep the process alive.
      redis.disconnect();
      // The 'error' event that says why (a wrong password) may come a turn after the refusal.
      await new Promise((resolve) => setImmediate(resolve));
      throw this.lastEvent ?? err;
    }
    return redis;
  }

  private drop(): void {
    const client = this.client;
    this.client = undefined;
    void client?.then(
      (r) => r.disconnect(),
      () => undefined,
    );
  }
}
