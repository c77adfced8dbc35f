// The fleet's budget: the same state as the machine's file (state.ts), kept in one Redis key per origin and
// key, so that every process on every machine that uses them shares one sliding window, its leases and its
// waiters. Each change is a read-modify-write under a lock in Redis (SET NX with an expiry, released by a
// compare-and-delete script), as the file's is under its lock: the change runs once, so the rules stay in
// TypeScript, in one place for both stores (an optimistic WATCH would run them again on a conflict, and
// the limiter's bookkeeping must not run twice). The key holds no API key (a hash of origin and key names it) and lives a window and a lease
// past the last change, so a fleet that stops leaves nothing behind. ioredis loads only when this is used.
import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { BrokenState, emptyState, parseState, type SharedState } from './state.js';
import type { BudgetStore } from './budget-store.js';
import { sleep } from '../../util/sleep.js';

/** Redis keys of agents budgets start so: `agents:budget:<hash>`. */
export const KEY_PREFIX = 'agents:budget:';
/** How long connecting and each command may take: a store that cannot answer costs about this, once. */
const REDIS_TIMEOUT_MS = 1000;
/** How long the lock may be held before another process takes it over (its holder died in the section). */
const LOCK_TTL_MS = 3000;
/** Giving up on the lock after this long: the store is then as good as lost. */
const LOCK_WAIT_MS = 5000;
/** Deletes the lock only if it is still ours. */
const UNLOCK = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";
/** The key lives this long past its last change: longer than any entry in it (window, lease, waiters). */
const KEY_TTL_MS = 3 * 60_000;
/** A budget is a few kilobytes; anything much larger under our key is not ours. */
const MAX_VALUE_BYTES = 1 << 20;

/** The address without user or password, for messages. */
export function shownRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname === '/' ? '' : u.pathname}`;
  } catch {
    return 'the configured Redis';
  }
}

/** The Redis key of an origin and API key's budget. */
export function budgetKey(origin: string, apiKey: string): string {
  return (
    KEY_PREFIX + createHash('sha256').update(`agents pacing\n${origin}\n${apiKey}`).digest('hex').slice(0, 32)
  );
}

/** A failure of the store, said without the URL's credentials (a client's own messages may hold them). */
function storeError(where: string, err: unknown): Error {
  if (err instanceof BrokenState) return err;
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  const raw = err instanceof Error ? err.message : String(err);
  // Only the error's kind: its text can name the host with user and password.
  const what =
    code ??
    (/WRONGPASS|NOAUTH|NOPERM/.test(raw)
      ? 'authentication failed (check the user and password of the budget URL)'
      : /timed? ?out/i.test(raw)
        ? 'timed out'
        : /closed|connection/i.test(raw)
          ? 'connection lost'
          : 'no answer');
  return new Error(`${where}: ${what}`);
}

/** A budget kept in Redis (or Valkey: only GET, SET with NX and PX, and EVAL are used). */
export class RedisStore implements BudgetStore {
  readonly where: string;
  readonly recovers = true;
  private readonly key: string;
  private client: Promise<Redis> | undefined;
  /** The connection's last 'error' event: the reason behind a bare "Connection is closed" (a wrong password). */
  private lastEvent: Error | undefined;

  constructor(
    private readonly url: string,
    origin: string,
    apiKey: string,
  ) {
    this.where = shownRedisUrl(url);
    this.key = budgetKey(origin, apiKey);
  }

  async transact<T>(fn: (s: SharedState, now: number) => T): Promise<T> {
    return this.using(async (redis) => {
      const lock = `${this.key}:lock`;
      const token = randomBytes(8).toString('hex');
      const started = Date.now();
      for (let attempt = 0; ; attempt += 1) {
        if ((await redis.set(lock, token, 'PX', LOCK_TTL_MS, 'NX')) === 'OK') break;
        if (Date.now() - started > LOCK_WAIT_MS) throw new Error('the budget stayed locked');
        // Short, growing, jittered: holders keep it about a millisecond, and waiters must not retry in step.
        await sleep(Math.random() * Math.min(2 ** attempt, 25));
      }
      try {
        const s = this.parse(await redis.get(this.key));
        const out = fn(s, Date.now());
        await redis.set(this.key, JSON.stringify(s), 'PX', KEY_TTL_MS);
        return out;
      } finally {
        await redis.eval(UNLOCK, 1, lock, token).catch(() => undefined);
      }
    });
  }

  peek(): Promise<SharedState> {
    return this.using(async (redis) => this.parse(await redis.get(this.key)));
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

  /**
   * Runs `op` on a connection; a failed one is dropped (the next use connects anew). The connection keeps
   * the process alive only while an operation runs: a command that is done exits as it would without it.
   */
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
      connectTimeout: REDIS_TIMEOUT_MS,
      commandTimeout: REDIS_TIMEOUT_MS,
      // One try: the limiter decides when to come back (every few seconds), not a reconnect loop.
      retryStrategy: () => null,
      maxRetriesPerRequest: 0,
      enableOfflineQueue: false,
      enableReadyCheck: false,
    });
    // Errors come back from the commands (an 'error' event with no listener would end the process); the
    // event's own text says why, where a command only hears that the connection closed.
    redis.on('error', (err: Error) => (this.lastEvent = err));
    try {
      await redis.connect();
    } catch (err) {
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
