// A release directory: each one-file executable as the archive install.sh downloads, and SHA256SUMS over
// every archive in it. The release workflow runs it on each runner for the executable built there, then
// once more with --sums-only over all of them; the install tests make theirs from this machine's.
//   node scripts/release-dir.mjs [--out DIR] [--sums-only] [EXECUTABLE...]
// EXECUTABLE defaults to every dist-bin/agents-<os>-<arch>[.exe]; DIR to release/. As gh, Deno and Bun
// do: agents-<os>-<arch>.tar.gz on Linux and macOS (tar and gzip are on every one of them, unzip is
// not), .zip on Windows, each holding agents-<os>-<arch>/agents (or agents.exe) and the licence.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  copyFileSync,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

const root = fileURLToPath(new URL('..', import.meta.url));
const ARCHIVE = /^agents-[a-z]+-[a-z0-9]+\.(tar\.gz|zip)$/;

/**
 * Archives one executable (dist-bin/agents-<os>-<arch>[.exe]) into `out`; resolves to the archive's path.
 * `level` is gzip's (default 6, zlib's: level 9 is slower and no smaller here; the tests ask for 1, which is fast).
 */
export async function archive(executable, out, { level = 6 } = {}) {
  const name = basename(executable).replace(/\.exe$/, '');
  if (!/^agents-[a-z]+-[a-z0-9]+$/.test(name))
    throw new Error(`${executable}: not an agents-<os>-<arch> executable`);
  const windows = executable.endsWith('.exe');
  const stage = mkdtempSync(join(tmpdir(), 'agents-release-'));
  try {
    mkdirSync(join(stage, name));
    copyFileSync(executable, join(stage, name, windows ? 'agents.exe' : 'agents'));
    copyFileSync(join(root, 'LICENSE'), join(stage, name, 'LICENSE'));
    mkdirSync(out, { recursive: true });
    const file = resolve(out, `${name}.${windows ? 'zip' : 'tar.gz'}`);
    rmSync(file, { force: true });
    // bsdtar (Windows' own tar.exe) writes a zip for -a and a .zip name; elsewhere tar, then gzip at `level`.
    const tarred = join(stage, `${name}.tar`);
    const args = windows ? ['-a', '-cf', file, name] : ['-cf', tarred, name];
    // Windows' own bsdtar by its path: Git for Windows puts its GNU tar first on a runner's PATH.
    const tar =
      windows && process.platform === 'win32'
        ? join(process.env.SystemRoot ?? 'C:\\Windows', 'System32', 'tar.exe')
        : 'tar';
    const made = spawnSync(tar, args, { cwd: stage, stdio: 'inherit' });
    if (made.status !== 0) throw new Error(`tar ${args.join(' ')} failed`);
    if (!windows) await pipeline(createReadStream(tarred), createGzip({ level }), createWriteStream(file));
    return file;
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/** Writes out/SHA256SUMS as sha256sum does ("<hex>  <name>"), over every archive in `out`. */
export function writeSums(out) {
  const lines = readdirSync(out)
    .filter((f) => ARCHIVE.test(f))
    .sort()
    .map(
      (f) =>
        `${createHash('sha256')
          .update(readFileSync(join(out, f)))
          .digest('hex')}  ${f}\n`,
    );
  if (lines.length === 0) throw new Error(`${out}: no agents-<os>-<arch> archive to sum`);
  writeFileSync(join(out, 'SHA256SUMS'), lines.join(''));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--out');
  const out = resolve(at === -1 ? join(root, 'release') : args.splice(at, 2)[1]);
  const sumsOnly = args.includes('--sums-only');
  let executables = args.filter((a) => a !== '--sums-only');
  if (!sumsOnly) {
    if (executables.length === 0) {
      const bin = join(root, 'dist-bin');
      executables = existsSync(bin)
        ? readdirSync(bin)
            .filter((f) => /^agents-[a-z]+-[a-z0-9]+(\.exe)?$/.test(f))
            .map((f) => join(bin, f))
        : [];
    }
    if (executables.length === 0) {
      console.error('error: no executable in dist-bin/: run npm run build:binary');
      process.exit(1);
    }
    for (const e of executables) console.log(await archive(e, out));
  }
  writeSums(out);
  console.log(join(out, 'SHA256SUMS'));
}
