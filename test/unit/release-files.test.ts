// The release workflow and the files it ships agree with each other, and with package.json, the one place
// that names the repository: action-files.test.ts checks every workflow against a validator; these are what
// a validator cannot know.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { githubRepository } from '../../scripts/repository.mjs';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

describe('the release workflow', () => {
  const workflow = read('.github/workflows/release.yml');

  it('runs on v* tags, tests before it publishes, and publishes with provenance', () => {
    expect(workflow).toMatch(/^on:\n {2}push:\n {4}tags: \['v\*'\]\n/m);
    expect(workflow).toMatch(/^ {4}needs: \[test, binary\]$/m);
    expect(workflow).toMatch(/^ {6}id-token: write$/m);
    expect(workflow).toContain('npm publish --provenance');
  });

  it('builds the executable for each platform install.sh installs, and Windows', () => {
    const targets = [...workflow.matchAll(/target: ([a-z]+-[a-z0-9]+) \}/g)].map((m) => m[1]);
    expect(targets.sort()).toEqual(['darwin-arm64', 'darwin-x64', 'linux-arm64', 'linux-x64', 'windows-x64']);
    const script = read('install.sh');
    for (const os of ['linux', 'darwin']) expect(script).toContain(`os=${os}`);
    for (const arch of ['x64', 'arm64']) expect(script).toContain(`arch=${arch}`);
  });

  it('takes the repository from package.json (scripts/repository.mjs) and ships install.sh as it is', () => {
    expect(workflow).toContain('node scripts/repository.mjs');
    expect(workflow).toContain('cp install.sh release/install.sh');
    // Nothing else names it: no repository written into install.sh or package.json on the way.
    expect(workflow).not.toMatch(/REPOSITORY=|npm pkg set repository|OWNER\/REPO/);
  });
});

describe('the repository, named once (package.json)', () => {
  const repository = githubRepository();
  const INSTALL_DOCS = ['README.md', 'docs/install.md', 'docs/ci.md', 'install.sh'];

  it("reads npm's forms of it", () => {
    for (const form of ['o/r', 'github:o/r', 'git+https://github.com/o/r.git', 'git@github.com:o/r.git'])
      expect(githubRepository({ repository: { url: form } }), form).toBe('o/r');
    expect(githubRepository({})).toBeUndefined();
    expect(() => githubRepository({ repository: 'https://gitlab.com/o/r' })).toThrow(
      /not a repository on GitHub/,
    );
  });

  it("install.sh's one REPOSITORY line is package.json's (empty while it names none)", () => {
    const lines = read('install.sh')
      .split('\n')
      .filter((l) => l.startsWith('REPOSITORY='));
    expect(lines).toEqual([`REPOSITORY='${repository ?? ''}'`]);
  });

  it('every release address in the install docs is its releases, and none points at a placeholder or nowhere', () => {
    for (const file of INSTALL_DOCS) {
      const text = read(file);
      const named = [...text.matchAll(/github\.com\/([^/\s'"`)]+\/[^/\s'"`)]+)\/releases/g)].map(
        (m) => m[1]!,
      );
      // `<owner>/<name>` and `$REPOSITORY` describe the form; any other name must be the repository.
      const real = named.filter((n) => !n.startsWith('<') && !n.startsWith('$'));
      expect(real, file).toEqual(repository === undefined ? [] : real.map(() => repository));
      expect(text, file).not.toMatch(/github\.com\/OWNER\/REPO/);
    }
  });

  it('README.md and docs/install.md give the install line for it; while there is none, with AGENTS_RELEASE_URL', () => {
    const line =
      repository === undefined
        ? 'curl -fsSL "$AGENTS_RELEASE_URL/latest/download/install.sh" | sh'
        : `curl -fsSL https://github.com/${repository}/releases/latest/download/install.sh | sh`;
    for (const file of ['README.md', 'docs/install.md']) {
      expect(read(file), file).toContain(line);
      expect(read(file).includes('no public release address yet'), file).toBe(repository === undefined);
    }
  });
});
