// The package as `npm pack` makes it, from this run's build: it holds bin/ and dist/ with source maps and
// nothing else but the man page, the README, the licence and package.json, and it runs unpacked where no node_modules is
// found above it. A file of its own (it was startup.test.ts's), so that its `npm pack` runs on another
// worker than the start-up checks.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, ROOT, runCli } from '../support/run-cli.js';
import { fileSession } from '../support/file-session.js';

const scratch = mkdtempSync(join(tmpdir(), 'agents-tarball-'));

const file = fileSession();

describe('the packed tarball', () => {
  it('holds bin/ and dist/ with a source map and the man page, and runs with no node_modules to find', async () => {
    // The package as `npm pack` makes it, from this run's build (prepack would rebuild the checkout's dist/).
    const pkg = join(scratch, 'package');
    mkdirSync(pkg);
    for (const file of ['package.json', 'README.md', 'LICENSE']) cpSync(join(ROOT, file), join(pkg, file));
    cpSync(join(ROOT, 'bin'), join(pkg, 'bin'), { recursive: true });
    cpSync(join(ROOT, 'man'), join(pkg, 'man'), { recursive: true });
    cpSync(join(dirname(BIN), '..', 'dist'), join(pkg, 'dist'), { recursive: true });
    const packed = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', scratch], {
      cwd: pkg,
      encoding: 'utf8',
    });
    expect(packed.status, packed.stderr).toBe(0);
    const [{ filename, files }] = JSON.parse(packed.stdout) as [
      { filename: string; files: { path: string }[] },
    ];
    const paths = files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['bin/agents.js', 'dist/agents.js', 'dist/agents.js.map']));
    expect(paths.some((p) => /^dist\/chunks\/.+\.js$/.test(p))).toBe(true);
    expect(paths.filter((p) => !/^(bin|dist)\//.test(p)).sort()).toEqual([
      'LICENSE',
      'README.md',
      'man/agents.1',
      'package.json',
    ]);
    // package.json's "man" names it, so that `npm install -g` puts it where `man agents` finds it.
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { man?: string[] };
    expect(manifest.man).toEqual(['./man/agents.1']);

    // Unpacked where no node_modules is above it: everything it runs is in the tarball.
    const unpacked = mkdtempSync(join(tmpdir(), 'agents-tarball-'));
    const tar = spawnSync('tar', ['-xzf', join(scratch, filename), '-C', unpacked], { encoding: 'utf8' });
    expect(tar.status, tar.stderr).toBe(0);
    const bin = join(unpacked, 'package', 'bin', 'agents.js');
    expect(existsSync(join(unpacked, 'package', 'node_modules'))).toBe(false);
    const version = await runCli(['--version'], {
      env: file.env,
      bin,
      cwd: dirname(dirname(bin)),
      closeStdin: true,
    });
    expect(version.stdout.trim()).toBe(
      (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version,
    );
    const shown = await runCli(['show', file.sessionId, '--json'], {
      env: file.env,
      bin,
      cwd: dirname(dirname(bin)),
      closeStdin: true,
    });
    expect(shown.code, shown.stderr).toBe(0);
    expect((JSON.parse(shown.stdout) as { session: { id: string } }).session.id).toBe(file.sessionId);
  });
});
