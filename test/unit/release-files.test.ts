// The release workflow and the files it ships agree with each other: action-files.test.ts checks every
// workflow against a validator; these are what a validator cannot know.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

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

  it("writes the repository into install.sh's one REPOSITORY line", () => {
    const sed = /sed "s\|\^(.+?)\$\|/.exec(workflow)?.[1];
    expect(sed).toBe("REPOSITORY='OWNER/REPO'");
    expect(
      read('install.sh')
        .split('\n')
        .filter((l) => l === sed),
    ).toHaveLength(1);
  });
});
