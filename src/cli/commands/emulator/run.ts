// `agents emulator`: serve the local API emulator until Ctrl-C / SIGTERM, then close and return.
import { once } from 'node:events';
import type { Context } from '../../run/context.js';
import type { Item } from '../../output/items.js';
import { CliError, UsageError } from '../../../core/index.js';
import {
  DEV_KEY,
  startEmulator,
  type EmulatorKey,
  type DialectName,
  type EmulatorOptions,
  type FaultMode,
  type MisbehaviourName,
  type RepeatedParams,
  misbehaviourOf,
} from '../../../emulator/index.js';
import { errorMessage } from '../../../util/text.js';

export interface EmulatorFlags {
  port: number;
  host: string;
  key?: string[];
  forbiddenKey?: string[];
  rateLimit: number;
  timeScale: number;
  faultRate?: number;
  fault?: FaultMode[];
  faultSeed?: number;
  slowMs?: number;
  dialect: DialectName;
  repeatedParams?: RepeatedParams;
  misbehave?: MisbehaviourName[];
}

/** `KEY[:WORKSPACE]` (split at the first colon; the workspace defaults to the dev key's). */
export function parseKeySpec(spec: string, forbidden = false): EmulatorKey {
  const colon = spec.indexOf(':');
  const key = colon === -1 ? spec : spec.slice(0, colon);
  const workspace = colon === -1 ? DEV_KEY.workspace : spec.slice(colon + 1);
  return forbidden ? { key, workspace, forbidden: true } : { key, workspace };
}

export function emulatorOptions(flags: EmulatorFlags): EmulatorOptions {
  const { faultRate: rate, fault: modes } = flags;
  if ((rate === undefined) !== (modes === undefined))
    throw new UsageError('--fault-rate and --fault go together', 'e.g. --fault-rate 0.2 --fault 503 reset');
  const accepted = flags.key?.map((k) => parseKeySpec(k)) ?? [DEV_KEY];
  const keys = [...accepted, ...(flags.forbiddenKey?.map((k) => parseKeySpec(k, true)) ?? [])];
  const twice = keys.find((k, i) => keys.findIndex((other) => other.key === k.key) !== i);
  if (twice) throw new UsageError(`key ${JSON.stringify(twice.key)} is given twice`);
  return {
    port: flags.port,
    host: flags.host,
    keys,
    rateLimit: flags.rateLimit > 0 ? { limit: flags.rateLimit, windowMs: 60_000 } : false,
    timeScale: flags.timeScale,
    dialect: flags.dialect,
    repeatedParams: flags.repeatedParams,
    misbehave: flags.misbehave && misbehaviourOf(flags.misbehave),
    faults:
      rate === undefined || modes === undefined
        ? undefined
        : { rate, modes, seed: flags.faultSeed, slowMs: flags.slowMs },
  };
}

function listenError(err: unknown, { host, port }: EmulatorFlags): CliError {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') {
    const hint = 'choose another with --port, or --port 0 for any free port';
    return new CliError(`port ${port} on ${host} is already in use`, { hint, cause: err });
  }
  if (code === 'EACCES') return new CliError(`not allowed to listen on ${host}:${port}`, { cause: err });
  const noSuch = code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND';
  const why = noSuch ? 'no such local address' : errorMessage(err);
  return new CliError(`cannot listen on ${host}:${port}: ${why}`, { cause: err });
}

const note = (text: string): Item => ({ kind: 'note', text });

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|localhost)$/;

export async function* emulator(ctx: Context, flags: EmulatorFlags): AsyncGenerator<Item> {
  // What the emulator says while it serves goes to stderr at once: this run's items are its start and end.
  const opts = { ...emulatorOptions(flags), onNotice: (line: string) => ctx.log.warn(line) };
  let em;
  try {
    em = await startEmulator(opts);
  } catch (err) {
    throw listenError(err, flags);
  }
  try {
    // Line one is the base URL; then one line per key: key, workspace, and "forbidden" for refused keys.
    const keys = em.keys.map((k) => `\n${k.key}\t${k.workspace}${k.forbidden ? '\tforbidden' : ''}`);
    yield { kind: 'value', text: `${em.url}${keys.join('')}`, json: { url: em.url, keys: em.keys } };
    const exposed = `listening on ${flags.host}: other machines can reach this emulator and its dev keys`;
    if (!LOOPBACK.test(flags.host)) yield { kind: 'warning', text: exposed };
    const usable = em.keys.find((k) => !k.forbidden);
    yield note(`Agent Sessions API emulator on ${em.url} (Ctrl-C to stop). Point agents at it:`);
    if (usable) yield note(`  export AGENTS_BASE_URL=${em.url} AGENTS_API_KEY=${usable.key}`);
    yield note('Script the agents with directives in a message, e.g. "[[think:2000]] [[steps:5]] hi".');
    if (!ctx.signal.aborted) await once(ctx.signal, 'abort');
  } finally {
    await em.close();
  }
  const { requests } = em.stats();
  yield note(`Emulator stopped after ${requests} request${requests === 1 ? '' : 's'}.`);
}
