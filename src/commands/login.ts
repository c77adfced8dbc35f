// agents login: get a base URL and a key (prompts at a terminal, or the key on stdin with --with-key), check
// the key with one request, and only then store both in the profile. A rejected key stores nothing.
import type { Context } from '../context.js';
import { CliError, ExitCode, UsageError } from '../errors.js';
import { ApiClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { openConfig } from '../config/store.js';
import { ENV_VARS, describeSource, resolveSettings } from '../config/settings.js';
import { validateApiKey, validateBaseUrl } from '../config/validate.js';
import { timeoutsFrom } from '../session/connect.js';

/** Options of `agents login` (besides the global --base-url and --profile). */
export interface LoginFlags {
  withKey?: boolean;
}

/** What a successful login stored. */
export interface LoginResult {
  profile: string;
  baseUrl: string;
}

// A session id that cannot exist: asking for it costs one request and reveals only whether the key works.
const NIL_UUID = '00000000-0000-0000-0000-000000000000';
// A key is short; anything this long on stdin is not a key (and must not be read into memory forever).
const MAX_STDIN_BYTES = 64 * 1024;

/** Reads the key from standard input: all of it, less one trailing newline. */
export async function readKeyFromStdin(stdin: Context['stdin']): Promise<string> {
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
  const key = Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
  if (key === '') {
    throw new UsageError(
      'no API key on standard input',
      `printf '%s' "$KEY" | agents login --with-key --base-url URL`,
    );
  }
  return validateApiKey(key, 'the API key on standard input');
}

/** Sends one request with the key; resolves when the service accepted it, throws a CliError otherwise. */
export async function verifyKey(ctx: Context, baseUrl: string, apiKey: string): Promise<void> {
  const client = new ApiClient({
    baseUrl,
    apiKey,
    // One request: a login that retries for a minute against a wrong address helps nobody.
    retry: { maxRetries: 0 },
    ...timeoutsFrom(ctx.env),
    debug: ctx.log.debugEnabled ? (line: string) => ctx.log.debug(line) : undefined,
  });
  try {
    await client.getSession(NIL_UUID, { signal: ctx.signal });
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    // The service's JSON 404 (an `error` text) means the key passed the gateway and the session is unknown.
    if (err.kind === 'not_found' && err.serverMessage !== undefined) return;
    if (err.kind === 'auth' || err.kind === 'forbidden') {
      throw new CliError(`${baseUrl} rejected the API key (HTTP ${String(err.status)}); nothing was stored`, {
        exitCode: ExitCode.AUTH,
        hint: 'check the key (the dashboard, Settings → API Keys) and that it belongs to this service',
      });
    }
    if (err.kind === 'not_found' || err.kind === 'unexpected') {
      throw new CliError(`${baseUrl} does not answer like the Agent Sessions API; nothing was stored`, {
        exitCode: ExitCode.FAILURE,
        hint: 'check the base URL: it is the address without /rest/v1',
        cause: err,
      });
    }
    if (err.kind === 'aborted') throw err;
    throw new CliError(`could not check the key: ${err.message}; nothing was stored`, {
      exitCode: err.exitCode,
      hint: err.hint,
      cause: err,
    });
  }
}

export async function runLogin(ctx: Context, flags: LoginFlags): Promise<LoginResult> {
  const store = openConfig(ctx.env);
  const settings = resolveSettings(ctx.globals, ctx.env, store);
  const { askApiKey, askBaseUrl } =
    ctx.caps.interactive && !flags.withKey ? await import('../prompts/login.js') : {};

  if (!flags.withKey && (askApiKey === undefined || askBaseUrl === undefined)) {
    throw new UsageError(
      'no terminal to ask for the key',
      `pipe the key in: printf '%s' "$KEY" | agents login --with-key --base-url URL (or set ${ENV_VARS.apiKey})`,
    );
  }

  let rawBaseUrl = settings.baseUrl;
  let where = settings.baseUrl === undefined ? 'base URL' : describeSource(settings, 'baseUrl');
  // At a terminal the base URL is asked for (the current one as default), unless --base-url just gave it.
  if (askBaseUrl !== undefined && settings.sources.baseUrl !== 'flag') {
    const current = rawBaseUrl === undefined ? undefined : tryNormalize(rawBaseUrl);
    rawBaseUrl = await askBaseUrl(current, { signal: ctx.signal });
    where = 'base URL';
  }
  if (rawBaseUrl === undefined) {
    throw new UsageError(
      'login needs a base URL',
      `pass --base-url URL (or set ${ENV_VARS.baseUrl}); it is the service address without /rest/v1`,
    );
  }
  const { value: baseUrl, warning } = validateBaseUrl(rawBaseUrl, where);
  if (warning !== undefined) ctx.log.warn(warning);

  const apiKey =
    askApiKey !== undefined
      ? validateApiKey((await askApiKey({ signal: ctx.signal })).trim())
      : await readKeyFromStdin(ctx.stdin);

  await verifyKey(ctx, baseUrl, apiKey);
  store.set(settings.profile, 'base-url', baseUrl);
  store.set(settings.profile, 'api-key', apiKey);
  ctx.log.info(`Logged in to ${baseUrl} as profile ${settings.profile}`);
  if (settings.sources.apiKey === 'env') {
    ctx.log.warn(`${ENV_VARS.apiKey} is set in this environment and takes precedence over the stored key`);
  }
  return { profile: settings.profile, baseUrl };
}

/** The current base URL in its stored form, or undefined when it is not valid (the prompt then has no default). */
function tryNormalize(raw: string): string | undefined {
  try {
    return validateBaseUrl(raw).value;
  } catch {
    return undefined;
  }
}
