// The package as `npm pack` makes it, from this run's build: it holds only what runs (bin/, dist/ with
// source maps and the library's types, the man page, the README, the licence and package.json), installs
// from the tarball into an empty prefix with no install scripts and no network, and there every command
// runs. A file of its own (it was startup.test.ts's), so that its `npm pack` runs on another worker than the
// start-up checks. publint is run on the package once its types are made, in library.test.ts: this run's
// build has them only once that file has made them.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, ROOT } from '../support/run-cli.js';
import { runEveryCommand } from '../support/every-command.js';

const scratch = mkdtempSync(join(tmpdir(), 'agents-tarball-'));
const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  man?: string[];
};

describe('the packed tarball', () => {
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('holds only what runs, installs with --ignore-scripts --offline, and runs every command', async () => {
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
    expect(filename).toBe(`${manifest.name}-${manifest.version}.tgz`);
    const paths = files.map((f) => f.path);
    expect(paths).toEqual(expect.arrayContaining(['bin/agents.js', 'dist/agents.js', 'dist/agents.js.map']));
    expect(paths.some((p) => /^dist\/chunks\/.+\.js$/.test(p))).toBe(true);
    // dist/ holds the program's chunks, their maps and the library's types (*.d.ts), nothing else.
    expect(paths.filter((p) => p.startsWith('dist/') && !/\.(js|js\.map|d\.ts)$/.test(p))).toEqual([]);
    expect(paths.filter((p) => !/^(bin|dist)\//.test(p)).sort()).toEqual([
      'LICENSE',
      'README.md',
      'man/agents.1',
      'package.json',
    ]);
    // package.json's "man" names it, so that `npm install -g` puts it where `man agents` finds it.
    expect(manifest.man).toEqual(['./man/agents.1']);

    // Into an empty prefix, as a user without a network or trust in install scripts would: nothing runs,
    // and nothing is fetched. Its one dependency, the keychain's native addon (@napi-rs/keyring and the
    // prebuilt package for this platform), comes from npm's cache, where this puts it first (from the
    // network only when it is not there yet; the other platforms' prebuilts are optional and left out).
    const lock = JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version: string }>;
    };
    const keyring = lock.packages['node_modules/@napi-rs/keyring']!.version;
    const prebuilt = Object.keys(lock.packages)
      .map((p) => p.replace(/^node_modules\//, ''))
      .filter((p) => p.startsWith(`@napi-rs/keyring-${process.platform}-${process.arch}`))
      .filter((p) => existsSync(join(ROOT, 'node_modules', p)));
    const cached = spawnSync(
      'npm',
      [
        'cache',
        'add',
        '--prefer-offline',
        `@napi-rs/keyring@${keyring}`,
        ...prebuilt.map((p) => `${p}@${keyring}`),
      ],
      { encoding: 'utf8' },
    );
    expect(cached.status, cached.stderr).toBe(0);
    const prefix = join(scratch, 'prefix');
    const installed = spawnSync(
      'npm',
      [
        'install',
        '-g',
        '--prefix',
        prefix,
        '--ignore-scripts',
        '--offline',
        '--no-audit',
        '--no-fund',
        join(scratch, filename),
      ],
      { encoding: 'utf8' },
    );
    expect(installed.status, installed.stderr).toBe(0);
    const root = join(prefix, 'lib', 'node_modules', manifest.name);
    // The addon resolves from the installed package, as the keychain's helper (dist/keychain-helper.js) imports it.
    expect(existsSync(join(root, 'node_modules', '@napi-rs', 'keyring', 'package.json'))).toBe(true);
    const resolves = spawnSync(process.execPath, ['-e', "require('@napi-rs/keyring'); console.log('ok')"], {
      cwd: join(root, 'dist'),
      encoding: 'utf8',
    });
    expect(resolves.stdout.trim(), resolves.stderr).toBe('ok');
    expect(existsSync(join(prefix, 'share', 'man', 'man1', 'agents.1'))).toBe(true);

    // The installed `agents` on its own: the launcher's path, not the checkout's.
    await runEveryCommand([join(prefix, 'bin', 'agents')], manifest.version);
  });
});
