// `npm run build:binary`: the one-file executable for this machine, dist-bin/agents-<os>-<arch> (.exe on
// Windows), with Node's single executable applications (`node --build-sea`, which Node 26 has). It is a
// copy of that Node with dist/ (as `npm run build` made it) in it as assets, one per file, and
// scripts/binary/sea-main.cjs as its main script, which loads them lazily as the npm install loads dist/.
// Source maps and types stay out. The Node used: `--node PATH`, else the running Node where it is 26 or later,
// else Node 26 through `npx node@26` (as .ci/run and the bench get Node versions).
// <os> is linux, darwin or windows and <arch> x64 or arm64: the names install.sh asks for.
// The keychain's native addon (@napi-rs/keyring's prebuilt for this platform, as npm installed it) goes in
// as the asset keyring.node (sea-main.cjs loads it); `--require-keychain` (the release) fails without one.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const dist = join(root, 'dist');
if (!existsSync(join(dist, 'agents.js'))) {
  console.error(
    'error: dist/agents.js is missing: run `npm run build:binary` (it builds first) or `npm run build`',
  );
  process.exit(1);
}

/** The Node that builds the executable, and so is in it. */
function builder() {
  const i = process.argv.indexOf('--node');
  if (i !== -1) return resolve(process.argv[i + 1]);
  if (Number(process.versions.node.split('.')[0]) >= 26) return process.execPath;
  const probe = spawnSync('npx', ['-y', 'node@26', '-p', 'process.execPath'], {
    encoding: 'utf8',
    shell: process.platform === 'win32',
  });
  const path = probe.stdout.trim();
  if (probe.status !== 0 || !existsSync(path)) {
    console.error(`error: no Node 26 to build with (npx node@26: ${probe.stderr.trim()}); pass --node PATH`);
    process.exit(1);
  }
  return path;
}

/** Every file of dist/ the program may import, by its path inside dist/ with forward slashes. */
function assets(dir = dist) {
  const found = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(found, assets(path));
    else if (name.endsWith('.js')) found[relative(dist, path).split(sep).join('/')] = path;
  }
  return found;
}

/**
 * The keychain's native addon for this platform (@napi-rs/keyring's prebuilt package that npm installed for
 * it), or undefined where there is none: the executable then keeps keys in the config file, and says so.
 */
function keyringAddon() {
  const scope = join(root, 'node_modules', '@napi-rs');
  const prefix = `keyring-${process.platform}-${process.arch}`;
  const packages = existsSync(scope) ? readdirSync(scope).filter((n) => n.startsWith(prefix)) : [];
  // Node's own build for Linux links glibc: its addon, not musl's.
  const pick = packages.find((n) => !n.endsWith('-musl')) ?? packages[0];
  if (pick === undefined) return undefined;
  const file = readdirSync(join(scope, pick)).find((n) => n.endsWith('.node'));
  return file === undefined ? undefined : join(scope, pick, file);
}

const addon = keyringAddon();
if (addon === undefined && process.argv.includes('--require-keychain')) {
  console.error(
    `error: no @napi-rs/keyring addon for ${process.platform}-${process.arch} (--require-keychain)`,
  );
  process.exit(1);
}
if (addon === undefined) {
  console.warn(
    `warning: no @napi-rs/keyring addon for ${process.platform}-${process.arch}: the executable will keep keys in the config file`,
  );
}

const os = { win32: 'windows' }[process.platform] ?? process.platform;
const out = join(root, 'dist-bin', `agents-${os}-${process.arch}${os === 'windows' ? '.exe' : ''}`);
mkdirSync(join(root, 'dist-bin'), { recursive: true });
rmSync(out, { force: true });
const work = mkdtempSync(join(tmpdir(), 'agents-sea-'));
const config = join(work, 'sea-config.json');
writeFileSync(
  config,
  JSON.stringify({
    main: join(root, 'scripts', 'binary', 'sea-main.cjs'),
    output: out,
    disableExperimentalSEAWarning: true,
    assets: { ...assets(), ...(addon === undefined ? {} : { 'keyring.node': addon }) },
  }),
);
const node = builder();
const built = spawnSync(node, ['--build-sea', config], { stdio: 'inherit' });
rmSync(work, { recursive: true, force: true });
if (built.status !== 0) process.exit(built.status ?? 1);
// The build leaves macOS's signature of node broken, and an arm64 Mac runs nothing unsigned: an ad hoc
// signature (a release may sign it again with a real identity).
if (process.platform === 'darwin') {
  const signed = spawnSync('codesign', ['--sign', '-', '--force', out], { stdio: 'inherit' });
  if (signed.status !== 0) process.exit(signed.status ?? 1);
}
const version = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
console.log(`${relative(root, out)}: ${(statSync(out).size / 1e6).toFixed(1)} MB, Node ${version}`);
