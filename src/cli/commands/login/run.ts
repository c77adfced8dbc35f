// agents login: the key is checked with one request before anything is stored: a rejected key stores nothing.
import { randomUUID } from 'node:crypto';
import type { Context } from '../../run/context.js';
import {
  CliError,
  describeSource,
  type Env,
  ENV_VARS,
  ExitCode,
  fromEnv,
  fromHttpError,
  type InStream,
  isHttpError,
  keychainFromEnv,
  storeKey,
  type StoreMode,
  UsageError,
  validateApiKey,
  validateBaseUrl,
} from '../../../core/index.js';
import type { Item } from '../../output/items.js';

export type LoginFlags = { withKey?: boolean; insecureStorage?: boolean; keychain?: boolean };

// A key is short; anything this long on stdin is not a key (and must not be read into memory forever).
const MAX_STDIN_BYTES = 64 * 1024;
const PIPE_KEY = `printf '%s' "$KEY" | agents login --with-key --base-url URL`;

async function readKeyFromStdin(stdin: InStream): Promise<string> {
  if (stdin.isTTY === true) {
    throw new UsageError(
      '--with-key reads the key from standard input, which is a terminal here',
      `pipe it in: printf '%s' "$KEY" | agents login --with-key; or run \`agents login\` to be asked`,
    );
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    size += buf.length;
    if (size > MAX_STDIN_BYTES) throw new UsageError('standard input is too long to be an API key');
    chunks.push(buf);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  const key = text.replace(/\r?\n$/, '');
  if (key === '') throw new UsageError('no API key on standard input', PIPE_KEY);
  return validateApiKey(key, 'the API key on standard input');
}

// A random v4 id cannot exist: a valid key gets a JSON 404 (the all-zero id may be refused as invalid),
// a wrong one 401 or 403.
async function verifyKey(ctx: Context, baseUrl: string, apiKey: string): Promise<void> {
  // One request: a login that retries for a minute against a wrong address helps nobody.
  const client = ctx.clientFor({ baseUrl, apiKey, retry: { maxRetries: 0 } });
  try {
    await client.getSession(randomUUID(), { signal: ctx.signal });
  } catch (err) {
    if (!isHttpError(err)) throw err;
    // A JSON 404: the key passed, the session is unknown; a 404 without it: a wrong base URL (no such route).
    if (err.kind === 'not_found' && err.serverMessage !== undefined) return;
    if (err.kind === 'auth' || err.kind === 'forbidden') {
      throw new CliError(`${baseUrl} rejected the API key (HTTP ${String(err.status)}); nothing was stored`, {
        exitCode: ExitCode.AUTH,
        hint: 'check the key (the dashboard, Settings → API Keys) and that it belongs to this service',
      });
    }
    if (err.kind === 'not_found' || err.kind === 'unexpected') {
      const what =
        err.kind === 'not_found' ? err.message : `${baseUrl} does not answer like the Agent Sessions API`;
      throw new CliError(`${what}; nothing was stored`, {
        hint: 'check the base URL: it is the address without /rest/v1',
        cause: err,
      });
    }
    const mapped = fromHttpError(err);
    if (err.kind === 'aborted') throw mapped;
    throw new CliError(`could not check the key: ${err.message}; nothing was stored`, {
      exitCode: mapped.exitCode,
      hint: mapped.hint,
      cause: err,
    });
  }
}

function storeMode(flags: LoginFlags, env: Env): StoreMode {
  if (flags.insecureStorage && flags.keychain)
    throw new UsageError('--keychain and --insecure-storage contradict each other: give one');
  if (flags.keychain && !keychainFromEnv(env))
    throw new UsageError('--keychain asks for the system keychain, which AGENTS_KEYCHAIN=0 turns off');
  return flags.insecureStorage ? 'file' : flags.keychain ? 'keychain' : 'auto';
}

export async function* login(ctx: Context, flags: LoginFlags): AsyncGenerator<Item> {
  const mode = storeMode(flags, ctx.io.env);
  const settings = await ctx.settings(['baseUrl']);
  const prompts = flags.withKey ? undefined : ctx.prompts;
  if (!flags.withKey && prompts === undefined) {
    throw new UsageError(
      'no terminal to ask for the key',
      `pipe the key in: ${PIPE_KEY} (or set ${ENV_VARS.apiKey})`,
    );
  }

  let rawBaseUrl = settings.baseUrl;
  let where = settings.baseUrl === undefined ? 'base URL' : describeSource(settings, 'baseUrl');
  // At a terminal the base URL is asked for (the current one as default), unless --base-url just gave it.
  if (prompts !== undefined && settings.sources.baseUrl !== 'flag') {
    let current: string | undefined;
    try {
      if (rawBaseUrl !== undefined) current = validateBaseUrl(rawBaseUrl).value;
    } catch {
      // Not valid: no default.
    }
    rawBaseUrl = await prompts.baseUrl(current);
    where = 'base URL';
  }
  if (rawBaseUrl === undefined) {
    throw new UsageError(
      'login needs a base URL',
      `pass --base-url URL (or set ${ENV_VARS.baseUrl}); it is the service address without /rest/v1`,
    );
  }
  const { value: baseUrl, warning } = validateBaseUrl(rawBaseUrl, where);
  if (warning !== undefined) yield { kind: 'warning', text: warning };

  const apiKey =
    prompts !== undefined
      ? validateApiKey((await prompts.apiKey()).trim())
      : await readKeyFromStdin(ctx.io.stdin);

  await verifyKey(ctx, baseUrl, apiKey);
  const stored = await storeKey(ctx.config, settings.profile, { baseUrl, apiKey }, mode, ctx.keyStore);
  if (stored.fallback !== undefined) yield { kind: 'warning', text: stored.fallback };
  const place = stored.place === 'keychain' ? 'the system keychain' : `the config file ${ctx.config.path}`;
  const done = `Logged in to ${baseUrl} as profile ${settings.profile}; the key is in ${place}`;
  yield { kind: 'note', text: done };
  const overridden = `${ENV_VARS.apiKey} is set in this environment and takes precedence over the stored key`;
  if (fromEnv(ctx.io.env, ENV_VARS.apiKey) !== undefined) yield { kind: 'warning', text: overridden };
}
