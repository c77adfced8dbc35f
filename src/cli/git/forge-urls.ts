// Pure: a pull request's address and a remote's URL, read as GitHub (or GitHub Enterprise) names them, so
// that the remote of a clone naming the pull request's repository can be found with no token and no API.
import { UsageError } from '../../core/index.js';

const PULL_PATH = /^\/([^/]+)\/([^/]+)\/pull\/([1-9][0-9]{0,9})(?:\/.*)?$/;

/** The pull request at `url`: a GitHub-like one (git alone cannot know which ref another forge uses). */
export function parsePullRequestUrl(url: string) {
  const u = URL.parse(url);
  const m = u !== null && /^https?:$/.test(u.protocol) ? PULL_PATH.exec(u.pathname) : null;
  if (u === null || m === null) {
    throw new UsageError(
      `the pull request ${JSON.stringify(url)} is not on a host agents can read with git (GitHub or GitHub Enterprise: …/<owner>/<repo>/pull/<n>)`,
      'fetch it yourself: open the address, and use the branch it names',
    );
  }
  const [, owner = '', repo = '', n = '0'] = m;
  const decode = (part: string): string => {
    const text = decoded(part);
    if (text !== undefined) return text;
    const stray = /%(?![0-9a-f]{2}).{0,2}/i.exec(part)?.[0];
    const why =
      stray !== undefined
        ? `${JSON.stringify(stray)} is not a %-escape`
        : `${JSON.stringify(part)} is not UTF-8 once decoded`;
    throw new UsageError(
      `the pull request ${JSON.stringify(url)} is not a valid address: ${why}`,
      'check the address the agent reported: agents show <session>',
    );
  };
  return { url, host: u.hostname.toLowerCase(), owner: decode(owner), repo: decode(repo), number: Number(n) };
}

/** A GitHub-like pull request: `https://<host>/<owner>/<repo>/pull/<n>`, its host in lower case, no port. */
export type PullRequestAddress = ReturnType<typeof parsePullRequestUrl>;

/** A part of a URL's path with its %-escapes decoded; undefined when one is not UTF-8 or not an escape. */
function decoded(part: string): string | undefined {
  try {
    return decodeURIComponent(part);
  } catch {
    return undefined;
  }
}

/**
 * The repository a remote URL (https, ssh, git, or scp's `git@host:owner/repo`) names, not a local path: its host
 * (lower case, no port or user) and `owner/repo` (lower case, no .git).
 */
export function parseRemoteUrl(url: string): { host: string; path: string } | undefined {
  const text = url.trim();
  let host: string;
  let path: string | undefined;
  const scp = /^(?:[^@/:]+@)?([^@/:]+):(?!\/\/)(.+)$/.exec(text);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text)) {
    const u = URL.parse(text);
    if (u === null || !/^(https?|ssh|git|git\+ssh|ssh\+git):$/i.test(u.protocol)) return undefined;
    host = u.hostname;
    path = decoded(u.pathname);
    if (path === undefined) return undefined;
  } else if (scp !== null) {
    [, host = '', path = ''] = scp;
  } else {
    return undefined;
  }
  const parts = path
    .replace(/^\/+|\/+$/g, '')
    .replace(/\.git$/i, '')
    .split('/');
  if (parts.length !== 2 || parts.some((p) => p === '') || host === '') return undefined;
  return { host: host.toLowerCase(), path: parts.join('/').toLowerCase() };
}

/** Whether the remote URL names the pull request's repository (same host and owner/repo, any case). */
export function remoteNames(remoteUrl: string, pr: PullRequestAddress): boolean {
  const r = parseRemoteUrl(remoteUrl);
  return r !== undefined && r.host === pr.host && r.path === `${pr.owner}/${pr.repo}`.toLowerCase();
}
