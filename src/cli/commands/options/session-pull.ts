// What checkout and diff share: the session's pull request and the clone's remote that names its
// repository, the checks that need no network first, so that a refusal costs no request and changes nothing.
import type { Context } from '../../run/context.js';
import { resolveSession, sessionPullRequests, type SessionRef } from '../../../core/index.js';
import { choosePullRequest, type PullRequestPick } from '../../input/pull-request-choice.js';
import { parsePullRequestUrl } from '../../git/forge-urls.js';
import { remoteFor, remotes, requireClone } from '../../git/clone.js';
import type { GitPlace } from '../../git/git.js';
import { sessionOrPick } from '../../input/pick-session.js';

interface LocateOptions {
  pick: PullRequestPick | undefined;
  clean: boolean;
  before?: (place: GitPlace) => Promise<void>;
  /** The session when none was given, before a person is asked to choose one (diff: the branch's). */
  fallback?: (place: GitPlace) => Promise<string | undefined>;
}

/** The clone is checked first: outside one, nobody is asked to choose a session. */
export async function locatePull(ctx: Context, given: SessionRef | undefined, o: LocateOptions) {
  const place: GitPlace = { cwd: ctx.io.cwd, env: ctx.io.env, signal: ctx.signal };
  await requireClone(place, o.clean);
  await o.before?.(place);
  const fallback = given === undefined ? await o.fallback?.(place) : undefined;
  const ref: SessionRef =
    given ?? (fallback !== undefined ? { kind: 'id', id: fallback } : await sessionOrPick(ctx, undefined));
  const { id } = await resolveSession(ref, await ctx.history());
  const session = await (await ctx.client()).getSession(id, { signal: ctx.signal });
  const urls = sessionPullRequests(session).map((p) => p.url);
  const pr = parsePullRequestUrl(await choosePullRequest(id, urls, o.pick, ctx.prompts));
  const remote = remoteFor(await remotes(place), pr);
  return { sessionId: id, pr, remote, place };
}
