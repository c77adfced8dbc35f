// The environment variables that are not settings of a profile: debugging, per-request time-outs, the
// pager, the time zone, and whether a browser can be started. One parser each, so a value means the same
// thing wherever it is read.
import { UsageError } from '../errors/cli-error.js';
import type { Env } from '../io/io.js';
import { parseDuration } from '../../util/duration.js';
import { parseSize } from '../../util/size.js';

/** An environment switch: set, and not '', '0' or 'false'. */
export function truthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** AGENTS_DEBUG: any value but '', '0' and 'false' turns tracing (and stack traces) on, like --debug. */
export function debugFromEnv(env: Env): boolean {
  return truthy(env.AGENTS_DEBUG);
}

/**
 * Per-request time-outs, for slow networks and proxies: AGENTS_CONNECT_TIMEOUT (default 10 s),
 * AGENTS_RESPONSE_TIMEOUT (the wait for the headers and between chunks, default 30 s) and
 * AGENTS_REQUEST_TIMEOUT (the whole exchange, default twice the response time-out), as durations (`15s`,
 * `2m`, or seconds). Unset or empty keeps the client's default; anything else that is not a duration is a
 * usage error.
 */
export function requestTimeouts(env: Env): {
  connectTimeoutMs?: number;
  responseTimeoutMs?: number;
  requestTimeoutMs?: number;
} {
  const read = (name: string): number | undefined => {
    const raw = env[name];
    if (raw === undefined || raw === '') return undefined;
    const ms = parseDuration(raw);
    if (ms === undefined) {
      throw new UsageError(
        `${name}=${JSON.stringify(raw.slice(0, 40))} is not a duration`,
        'use e.g. 15s, 2m or a number of seconds',
      );
    }
    return ms;
  };
  return {
    connectTimeoutMs: read('AGENTS_CONNECT_TIMEOUT'),
    responseTimeoutMs: read('AGENTS_RESPONSE_TIMEOUT'),
    requestTimeoutMs: read('AGENTS_REQUEST_TIMEOUT'),
  };
}

/**
 * AGENTS_MAX_RESPONSE: the largest answer from the API that is read (default 32 MiB), as a size (`64MiB`,
 * `1GiB`, or bytes). Unset or empty keeps the default; anything else is a usage error.
 */
export function maxResponseFromEnv(env: Env): number | undefined {
  const raw = env.AGENTS_MAX_RESPONSE;
  if (raw === undefined || raw === '') return undefined;
  const bytes = parseSize(raw);
  if (bytes === undefined) {
    throw new UsageError(
      `AGENTS_MAX_RESPONSE=${JSON.stringify(raw.slice(0, 40))} is not a size`,
      'use e.g. 64MiB, 1GiB or a number of bytes',
    );
  }
  return bytes;
}

/** How times are shown: the moment they are relative to, and the time zone (the system's when undefined). */
export interface TimeSettings {
  now: number;
  timeZone?: string;
}

/** The time zone named by TZ when Intl knows it (TZ=":/etc/localtime" and the like fall back to the system's). */
export function timeZoneFrom(tz: string | undefined): string | undefined {
  if (tz === undefined || tz === '') return undefined;
  try {
    new Intl.DateTimeFormat('en-GB', { timeZone: tz });
    return tz;
  } catch {
    return undefined;
  }
}

/** How a terminal shows times: local (TZ when Intl knows it, else the system's zone), relative to now. */
export function timeFormat(env: Env, now = Date.now()): TimeSettings {
  return { now, timeZone: timeZoneFrom(env.TZ) };
}

/** The pager when nothing is configured: quit if one screen, keep colours, leave the text on the screen. */
export const DEFAULT_PAGER = 'less -FRX';

/**
 * The pager for long output on a terminal, as gh picks it: AGENTS_PAGER, then PAGER, then `less -FRX`.
 * Set to '' or `cat`: no pager (undefined).
 */
export function pagerCommand(env: Env): string | undefined {
  const command = (env.AGENTS_PAGER ?? env.PAGER ?? DEFAULT_PAGER).trim();
  return command === '' || command === 'cat' ? undefined : command;
}

/** The pager's environment: less keeps colours and the screen unless the user set LESS (and lv likewise). */
export function pagerEnv(env: Env): Env {
  return { ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c' };
}

/**
 * Why no browser can be started from here, or undefined when one may be: a CI job, an SSH session (the
 * browser would open on the remote machine, if at all), a Linux or BSD desktop-less session (no DISPLAY
 * or WAYLAND_DISPLAY; WSL opens the Windows browser).
 */
export function noBrowserReason(env: Env, platform: NodeJS.Platform): string | undefined {
  if (truthy(env.CI)) return 'running under CI';
  if (env.SSH_CONNECTION || env.SSH_CLIENT || env.SSH_TTY) return 'an SSH session';
  const unixDesktop = platform !== 'darwin' && platform !== 'win32' && platform !== 'android';
  const wsl = platform === 'linux' && (env.WSL_DISTRO_NAME !== undefined || env.WSL_INTEROP !== undefined);
  if (unixDesktop && !wsl && !env.DISPLAY && !env.WAYLAND_DISPLAY) return 'no display';
  return undefined;
}

/**
 * AGENTS_SHARED_PACING: the request budget is shared with every agents process on the machine that uses
 * the same key unless this is '0' or 'false'. Off, each process paces itself alone, as before the budget
 * was shared: for benchmarks that measure what sharing gains, not for everyday use.
 */
export function sharedPacingFromEnv(env: Env): boolean {
  const raw = env.AGENTS_SHARED_PACING;
  return raw === undefined || raw === '' || truthy(raw);
}

/** The key's documented limit, in requests a minute. */
export const KEY_RATE_LIMIT = 100;

/**
 * AGENTS_RATE_LIMIT: the requests a minute this machine may spend on the key (1 to 100; default the key's
 * whole 100), shared by its agents processes like the whole budget. For a key shared by several machines,
 * which cannot see each other's requests: thirty CI runners set 3 and together stay under the 100. Unset or
 * empty is the default; anything else is a usage error.
 */
export function rateLimitFromEnv(env: Env): number | undefined {
  const raw = env.AGENTS_RATE_LIMIT;
  if (raw === undefined || raw === '') return undefined;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || !(n >= 1 && n <= KEY_RATE_LIMIT)) {
    throw new UsageError(
      `AGENTS_RATE_LIMIT=${JSON.stringify(raw.slice(0, 40))} is not a number of requests a minute from 1 to ${KEY_RATE_LIMIT}`,
      "give this machine's share of the key's 100 requests a minute, e.g. 3 for one of thirty runners",
    );
  }
  return n;
}

/**
 * The files GitHub Actions reads after a step, for a waiting command: the step summary (GITHUB_STEP_SUMMARY,
 * on by default under GITHUB_ACTIONS=true; --no-step-summary or AGENTS_STEP_SUMMARY=0 turn it off), and the
 * step outputs (GITHUB_OUTPUT, with --github-output, which is a usage error where the runner names none).
 */
export function githubFiles(
  env: Env,
  flags: { stepSummary?: boolean; githubOutput?: boolean },
): { summary?: string; output?: string } {
  const actions = env.GITHUB_ACTIONS === 'true';
  const off =
    flags.stepSummary === false ||
    (env.AGENTS_STEP_SUMMARY !== undefined && !truthy(env.AGENTS_STEP_SUMMARY));
  const summary = actions && !off && env.GITHUB_STEP_SUMMARY ? env.GITHUB_STEP_SUMMARY : undefined;
  if (flags.githubOutput !== true) return { summary };
  if (!env.GITHUB_OUTPUT) {
    throw new UsageError('--github-output needs GITHUB_OUTPUT, which GitHub Actions sets for each step');
  }
  return { summary, output: env.GITHUB_OUTPUT };
}

/**
 * AGENTS_KEYCHAIN=0 (or `false`): `agents login` keeps the key in the config file without trying the system's
 * keychain, and without the line that says it fell back (a container or a test that knows there is none).
 * Unset, empty or any other value: the keychain first. A key the file says is in the keychain is still read
 * from there.
 */
export function keychainFromEnv(env: Env): boolean {
  const raw = env.AGENTS_KEYCHAIN;
  return raw === undefined || raw === '' || truthy(raw);
}
