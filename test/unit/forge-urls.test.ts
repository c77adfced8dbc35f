// Which remote names a pull request's repository: the forms git writes a GitHub or GitHub Enterprise
// remote in, any case, with or without .git; another host or repository does not; a merge request of
// GitLab is no pull request agents can fetch. And a session's pull requests in both of the service's shapes.
import { describe, expect, it } from 'vitest';
import { parsePullRequestUrl, parseRemoteUrl, remoteNames } from '../../src/cli/git/forge-urls.js';
import { sessionPullRequests } from '../../src/core/index.js';
import type { Session } from '../../src/core/api/types.js';

describe('forge addresses', () => {
  const pr = parsePullRequestUrl('https://github.com/Acme/App/pull/12/files');
  const ghe = parsePullRequestUrl('https://git.example.com/acme/app/pull/7');

  it('reads a pull request on GitHub or GitHub Enterprise', () => {
    expect(pr).toMatchObject({ host: 'github.com', owner: 'Acme', repo: 'App', number: 12 });
    expect(ghe).toMatchObject({ host: 'git.example.com', number: 7 });
  });

  it.each([
    'https://github.com/acme/app.git',
    'https://github.com/acme/app',
    'HTTPS://GitHub.com/ACME/APP.GIT',
    'https://user@github.com/acme/app/',
    'ssh://git@github.com/acme/app.git',
    'ssh://git@github.com:22/acme/app',
    'git@github.com:acme/app.git',
    'git@github.com:Acme/App',
  ])('%s names github.com/acme/app', (url) => {
    expect(remoteNames(url, pr)).toBe(true);
  });

  it.each([
    'https://github.com/acme/other.git',
    'https://gitlab.com/acme/app.git',
    'git@git.example.com:acme/app.git',
    '/srv/git/app.git',
    'https://github.com/acme/app/extra',
    // An escape that does not decode names nothing (it threw "URI malformed", an exit 1).
    'https://github.com/%ZZ/app.git',
  ])('%s does not', (url) => {
    expect(remoteNames(url, pr)).toBe(false);
  });

  it('matches a GitHub Enterprise remote on its own host only', () => {
    expect(remoteNames('git@git.example.com:acme/app.git', ghe)).toBe(true);
    expect(remoteNames('git@github.com:acme/app.git', ghe)).toBe(false);
    expect(parseRemoteUrl('ssh://git@git.example.com:2222/acme/app.git')).toEqual({
      host: 'git.example.com',
      path: 'acme/app',
    });
  });

  it.each([
    'https://gitlab.com/acme/app/-/merge_requests/3',
    'https://bitbucket.org/acme/app/pull-requests/3',
    'not a url',
    'https://github.com/%ZZ/app/pull/1',
    'https://github.com/acme/%C3/pull/1',
  ])('refuses %s with exit 2, naming it', (url) => {
    expect(() => parsePullRequestUrl(url)).toThrow(expect.objectContaining({ exitCode: 2 }));
    expect(() => parsePullRequestUrl(url)).toThrow(JSON.stringify(url));
  });

  it('reads a session’s pull requests as strings (the spec) and {url, status} objects (the live service)', () => {
    const session = {
      pull_requests: [
        'https://github.com/a/b/pull/1',
        { url: 'https://github.com/a/b/pull/2', status: 'open' },
      ],
    } as unknown as Session;
    expect(sessionPullRequests(session)).toEqual([
      { url: 'https://github.com/a/b/pull/1' },
      { url: 'https://github.com/a/b/pull/2', status: 'open' },
    ]);
  });
});
