// The project's GitHub repository ("owner/name"), named in one place: package.json's `repository`.
// install.sh's REPOSITORY line, the install lines of README.md and docs/, and the release workflow take it
// from there (test/unit/release-files.test.ts holds them to it). The project has no public address yet, so
// package.json names none: then install.sh needs AGENTS_RELEASE_URL, and a release stops at its first job.
//   node scripts/repository.mjs    prints owner/name; exits 1 saying what to set when package.json names none
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';

const root = new URL('..', import.meta.url);

/** owner/name of the GitHub repository package.json's `repository` names, or undefined when it names none. */
export function githubRepository(pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'))) {
  const field = pkg.repository;
  if (field === undefined) return undefined;
  const url = typeof field === 'string' ? field : field.url;
  // npm's forms: "owner/name", "github:owner/name", "git+https://github.com/owner/name.git", "git@…" ones.
  const found =
    /^(?:github:)?([\w.-]+)\/([\w.-]+)$/.exec(url) ??
    /^(?:git\+)?(?:https|ssh|git):\/\/(?:git@)?github\.com[/:]([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(
      url,
    ) ??
    /^git@github\.com:([\w.-]+)\/([\w.-]+?)(?:\.git)?$/.exec(url);
  if (!found) throw new Error(`package.json's repository (${url}) is not a repository on GitHub`);
  return `${found[1]}/${found[2]}`;
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const repository = githubRepository();
  if (repository === undefined) {
    console.error(
      'error: package.json names no repository: set it (npm pkg set repository.type=git ' +
        'repository.url=git+https://github.com/OWNER/NAME.git), then put it in install.sh, README.md and ' +
        'docs/ as test/unit/release-files.test.ts says',
    );
    process.exit(1);
  }
  console.log(repository);
}
