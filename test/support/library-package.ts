// The package as `npm pack` makes it from this run's build, unpacked into node_modules/agents-cli of a consumer
// directory inside the checkout (so that @types/node resolves from the repository's node_modules).
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { BIN, ROOT } from './run-cli.js';

/** A program's exit code and output. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `cmd args` in `cwd` to its end (a hang guard kills it after `guardMs`, never a speed limit). */
export function run(cmd: string, args: string[], cwd: string, guardMs = 110_000): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const guard = setTimeout(() => child.kill('SIGKILL'), guardMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(guard);
      resolve({ code, stdout, stderr });
    });
  });
}

/** This run's build: its dist/ and the directory beside it where the build leaves its work. */
export const BUILD = { dist: join(dirname(BIN), '..', 'dist'), work: join(dirname(BIN), '..', '.dist-work') };

/** Packs the build (package.json, README, LICENSE, bin, man, dist) into `<scratch>/pack/*.tgz`. */
export async function packBuild(scratch: string): Promise<{ dir: string; tarball: string }> {
  const dir = join(scratch, 'package');
  mkdirSync(dir);
  for (const file of ['package.json', 'README.md', 'LICENSE']) cpSync(join(ROOT, file), join(dir, file));
  for (const d of ['bin', 'man']) cpSync(join(ROOT, d), join(dir, d), { recursive: true });
  cpSync(BUILD.dist, join(dir, 'dist'), { recursive: true });
  const dest = join(scratch, 'pack');
  mkdirSync(dest);
  const packed = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dest], dir);
  if (packed.code !== 0) throw new Error(`npm pack: ${packed.stderr}`);
  const [{ filename }] = JSON.parse(packed.stdout) as [{ filename: string }];
  return { dir, tarball: join(dest, filename) };
}

/** A consumer project under the checkout with the tarball unpacked as node_modules/agents-cli. */
export async function consumerOf(tarball: string): Promise<string> {
  mkdirSync(join(ROOT, '.test-build'), { recursive: true });
  const dir = mkdtempSync(join(ROOT, '.test-build', 'consumer-'));
  // A package of its own: inside the checkout, `agents-cli` would otherwise resolve to the checkout itself
  // (a package may import itself by name).
  writeFileSync(
    join(dir, 'package.json'),
    JSON.stringify({ name: 'consumer', type: 'module', private: true }),
  );
  const modules = join(dir, 'node_modules');
  mkdirSync(modules);
  const tar = await run('tar', ['-xzf', tarball, '-C', modules], dir);
  if (tar.code !== 0) throw new Error(`tar: ${tar.stderr}`);
  cpSync(join(modules, 'package'), join(modules, 'agents-cli'), { recursive: true });
  return dir;
}
