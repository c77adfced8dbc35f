// agents budget: read where the key's processes keep it (this machine's file, the fleet's Redis): no request.
import {
  ApiUrls,
  BrokenState,
  type BudgetKeyRef,
  type BudgetStore,
  budgetView,
  CliError,
  DEFAULT_PACING,
  ExitCode,
  FileStore,
  isStop,
  rateLimitFromEnv,
  RedisStore,
  requireBaseUrl,
  requireConnection,
} from '../../../core/index.js';
import { pacingDir, type Context } from '../../run/context.js';
import { sleep } from '../../../util/sleep.js';
import type { Result } from '../../output/items.js';
import type { BudgetItem } from './items.js';
import { errorMessage } from '../../../util/text.js';

export { print } from './items.js';

export type BudgetFlags = { watch?: boolean };

/** The store of the profile's key, named by the digest login stored (the keychain is not read for it). */
async function storeOf(ctx: Context): Promise<{ store: BudgetStore; origin: string; fleet: boolean }> {
  const need = ['apiKey', 'baseUrl', 'budgetUrl'] as const;
  let s = await ctx.settings(need, { keychain: false });
  let apiKey: BudgetKeyRef;
  let baseUrl: string;
  const digest = s.apiKey === undefined ? s.keyDigest : undefined;
  if (digest !== undefined && new ApiUrls(requireBaseUrl(s).value).origin === digest.origin) {
    baseUrl = requireBaseUrl(s).value;
    apiKey = { digest: digest.digest };
  } else {
    // A key in the keychain without its digest for this origin (another --base-url): read after all.
    if (s.apiKey === undefined && s.keyPlace === 'keychain') s = await ctx.settings(need);
    ({ baseUrl, apiKey } = requireConnection(s));
  }
  const { origin } = new ApiUrls(baseUrl);
  if (s.budgetUrl !== undefined)
    return { store: new RedisStore(s.budgetUrl, origin, apiKey), origin, fleet: true };
  return { store: new FileStore(pacingDir(ctx.io), origin, apiKey), origin, fleet: false };
}

async function read(ctx: Context, at: Awaited<ReturnType<typeof storeOf>>): Promise<BudgetItem> {
  const pacing = { ...DEFAULT_PACING, limit: rateLimitFromEnv(ctx.io.env) ?? DEFAULT_PACING.limit };
  let state;
  try {
    // Repaired now, and said, as the next command would: looking should not leave the budget broken.
    at.store.onRepair = (message) => ctx.log.warn(message);
    await at.store.repair?.();
    state = await at.store.stored();
  } catch (err) {
    const newer = err instanceof BrokenState && err.newer;
    throw new CliError(`could not read the budget: ${errorMessage(err)}`, {
      cause: err,
      hint: newer
        ? `run that version's \`agents budget\`; processes of this one pace alone until ${at.store.where} is deleted`
        : `the processes that use the key pace alone meanwhile; check ${at.store.where}, or delete it`,
    });
  }
  const view = state === undefined ? undefined : budgetView(state, at.store.now(), pacing);
  return { kind: 'budget', origin: at.origin, where: at.store.where, fleet: at.fleet, view, watch: false };
}

export async function budget(ctx: Context, flags: BudgetFlags): Promise<Result<BudgetItem>> {
  const at = await storeOf(ctx);
  const first = await read(ctx, at);
  if (!flags.watch) return first;
  const everyMs = ctx.io.tuning?.watchMs ?? 1000;
  return (async function* watching() {
    try {
      for (let item = first; ; item = await read(ctx, at)) {
        yield { ...item, watch: true };
        await sleep(everyMs, ctx.signal);
      }
    } catch (err) {
      // Ctrl-C is how a watch is meant to end: quietly, with the contract's 130 (as a plain tail).
      if (isStop(ctx.signal.reason) && ctx.signal.reason !== 'EPIPE')
        throw new CliError('interrupted', { exitCode: ExitCode.INTERRUPTED, silent: true });
      throw err;
    }
  })();
}
