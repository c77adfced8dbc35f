// The environment variables that are not settings of a profile, one parser each: one meaning everywhere.
import { UsageError } from '../errors/cli-error.js';
import type { Env } from '../io/io.js';
import { parseDuration } from '../../util/duration.js';
import { parseSize } from '../../util/size.js';

/** An environment switch: set, and not '', '0' or 'false'. */
export function truthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

const onUnlessOff = (raw: string | undefined) => raw === undefined || raw === '' || truthy(raw);

/** How a number is read: its parser, what it reads ("a duration"), and a hint at the form. */
type Reading = [parse: (raw: string) => number | undefined, what: string, hint: string];
const DURATION: Reading = [parseDuration, 'a duration', 'use e.g. 15s, 2m or a number of seconds'];
const SIZE: Reading = [parseSize, 'a size', 'use e.g. 64MiB, 1GiB or a number of bytes'];

/** `name` as `parse` reads it: unset or empty is undefined, anything else it cannot read a usage error. */
function fromEnvAs(env: Env, name: string, [parse, what, hint]: Reading): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = parse(raw);
  if (value === undefined)
    throw new UsageError(`${name}=${JSON.stringify(raw.slice(0, 40))} is not ${what}`, hint);
  return value;
}

export function debugFromEnv(env: Env): boolean {
  return truthy(env.AGENTS_DEBUG);
}

/** Per-request time-outs, for slow networks and proxies; unset, the client's defaults. */
export function requestTimeouts(env: Env) {
  const read = (name: string) => fromEnvAs(env, name, DURATION);
  return {
    connectTimeoutMs: read('AGENTS_CONNECT_TIMEOUT'),
    responseTimeoutMs: read('AGENTS_RESPONSE_TIMEOUT'),
    requestTimeoutMs: read('AGENTS_REQUEST_TIMEOUT'),
  };
}

/** AGENTS_MAX_RESPONSE: the largest answer from the API that is read. */
export function maxResponseFromEnv(env: Env): number | undefined {
  return fromEnvAs(env, 'AGENTS_MAX_RESPONSE', SIZE);
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

export function timeFormat(env: Env, now = Date.now()): { now: number; timeZone?: string } {
  return { now, timeZone: timeZoneFrom(env.TZ) };
}

/** As gh picks it: AGENTS_PAGER, then PAGER, then `less -FRX`; '' or `cat`: none. */
export function pagerCommand(env: Env): string | undefined {
  const command = (env.AGENTS_PAGER ?? env.PAGER ?? 'less -FRX').trim();
  return command === '' || command === 'cat' ? undefined : command;
}

/** less (and lv) keep colours and the screen unless the user set LESS. */
export function pagerEnv(env: Env): Env {
  return { ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c' };
}

/** Why no browser can be started from here (an SSH session's would open remotely, if at all). */
export function noBrowserReason(env: Env, platform: NodeJS.Platform): string | undefined {
  if (truthy(env.CI)) return 'running under CI';
  if (env.SSH_CONNECTION || env.SSH_CLIENT || env.SSH_TTY) return 'an SSH session';
  const unixDesktop = platform !== 'darwin' && platform !== 'win32' && platform !== 'android';
  const wsl = platform === 'linux' && (env.WSL_DISTRO_NAME !== undefined || env.WSL_INTEROP !== undefined);
  if (unixDesktop && !wsl && !env.DISPLAY && !env.WAYLAND_DISPLAY) return 'no display';
  return undefined;
}

/** AGENTS_SHARED_PACING=0: each process paces alone, for benchmarks that measure what sharing gains. */
export function sharedPacingFromEnv(env: Env): boolean {
  return onUnlessOff(env.AGENTS_SHARED_PACING);
}

const KEY_RATE_LIMIT = 100;

/** AGENTS_RATE_LIMIT: this machine's share of a key that machines which cannot see each other share. */
export function rateLimitFromEnv(env: Env): number | undefined {
  return fromEnvAs(env, 'AGENTS_RATE_LIMIT', [
    (raw) =>
      /^\d+$/.test(raw.trim()) && Number(raw) >= 1 && Number(raw) <= KEY_RATE_LIMIT ? Number(raw) : undefined,
    `a number of requests a minute from 1 to ${KEY_RATE_LIMIT}`,
    "give this machine's share of the key's 100 requests a minute, e.g. 3 for one of thirty runners",
  ]);
}

/** The step summary and outputs GitHub Actions reads after a step, for a waiting command. */
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
  if (!env.GITHUB_OUTPUT)
    throw new UsageError('--github-output needs GITHUB_OUTPUT, which GitHub Actions sets for each step');
  return { summary, output: env.GITHUB_OUTPUT };
}

/** AGENTS_KEYCHAIN=0: `login` keeps the key in the file without trying a keychain known to be absent. */
export function keychainFromEnv(env: Env): boolean {
  return onUnlessOff(env.AGENTS_KEYCHAIN);
}
