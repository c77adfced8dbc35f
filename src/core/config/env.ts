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

/** A switch that is on unless it is '0' or 'false'. */
const onUnlessOff = (raw: string | undefined) => raw === undefined || raw === '' || truthy(raw);

/** `name` as `parse` reads it: unset or empty is undefined, anything else it cannot read a usage error. */
function fromEnvAs(
  env: Env,
  name: string,
  parse: (raw: string) => number | undefined,
  what: string,
  hint: string,
): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = parse(raw);
  if (value === undefined)
    throw new UsageError(`${name}=${JSON.stringify(raw.slice(0, 40))} is not ${what}`, hint);
  return value;
}

/** AGENTS_DEBUG: any value but '', '0' and 'false' turns tracing (and stack traces) on, like --debug. */
export function debugFromEnv(env: Env): boolean {
  return truthy(env.AGENTS_DEBUG);
}

/**
 * Per-request time-outs, for slow networks and proxies, as durations (`15s`, `2m`, or seconds):
 * AGENTS_CONNECT_TIMEOUT (default 10 s), AGENTS_RESPONSE_TIMEOUT (the wait for the headers and between
 * chunks, default 30 s) and AGENTS_REQUEST_TIMEOUT (the whole exchange, default twice the response's).
 */
export function requestTimeouts(env: Env): {
  connectTimeoutMs?: number;
  responseTimeoutMs?: number;
  requestTimeoutMs?: number;
} {
  const read = (name: string) =>
    fromEnvAs(env, name, parseDuration, 'a duration', 'use e.g. 15s, 2m or a number of seconds');
  return {
    connectTimeoutMs: read('AGENTS_CONNECT_TIMEOUT'),
    responseTimeoutMs: read('AGENTS_RESPONSE_TIMEOUT'),
    requestTimeoutMs: read('AGENTS_REQUEST_TIMEOUT'),
  };
}

/** AGENTS_MAX_RESPONSE: the largest answer from the API that is read (default 32 MiB), as a size. */
export function maxResponseFromEnv(env: Env): number | undefined {
  return fromEnvAs(
    env,
    'AGENTS_MAX_RESPONSE',
    parseSize,
    'a size',
    'use e.g. 64MiB, 1GiB or a number of bytes',
  );
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
export function timeFormat(env: Env, now = Date.now()): { now: number; timeZone?: string } {
  return { now, timeZone: timeZoneFrom(env.TZ) };
}

/**
 * The pager for long output on a terminal, as gh picks it: AGENTS_PAGER, then PAGER, then `less -FRX` (quit
 * if one screen, keep colours, leave the text on the screen). Set to '' or `cat`: no pager (undefined).
 */
export function pagerCommand(env: Env): string | undefined {
  const command = (env.AGENTS_PAGER ?? env.PAGER ?? 'less -FRX').trim();
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
 * AGENTS_SHARED_PACING: the request budget is shared with every agents process on the machine that uses the
 * same key unless this is '0' or 'false': off, for benchmarks that measure what sharing gains.
 */
export function sharedPacingFromEnv(env: Env): boolean {
  return onUnlessOff(env.AGENTS_SHARED_PACING);
}

/** The key's documented limit, in requests a minute. */
const KEY_RATE_LIMIT = 100;

/**
 * AGENTS_RATE_LIMIT: the requests a minute this machine may spend on the key (1 to 100, default 100), shared
 * by its processes, for a key shared by machines that cannot see each other's requests: thirty CI runners
 * set 3 and together stay under the 100.
 */
export function rateLimitFromEnv(env: Env): number | undefined {
  return fromEnvAs(
    env,
    'AGENTS_RATE_LIMIT',
    (raw) =>
      /^\d+$/.test(raw.trim()) && Number(raw) >= 1 && Number(raw) <= KEY_RATE_LIMIT ? Number(raw) : undefined,
    `a number of requests a minute from 1 to ${KEY_RATE_LIMIT}`,
    "give this machine's share of the key's 100 requests a minute, e.g. 3 for one of thirty runners",
  );
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
 * AGENTS_KEYCHAIN=0 (or `false`): `agents login` keeps the key in the config file without trying the
 * keychain, nor saying it fell back (a container or a test that knows there is none). A key the file says is
 * in the keychain is still read from there.
 */
export function keychainFromEnv(env: Env): boolean {
  return onUnlessOff(env.AGENTS_KEYCHAIN);
}
