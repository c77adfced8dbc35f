// The TypeScript benches (bench/poll/, bench/fanout/) and the src modules they import, bundled with esbuild
// since Node 20 cannot import .ts, then run. The bundle goes to a fresh directory under node_modules/.cache
// so that the packages it leaves external resolve from node_modules. A bench exits 1 only when it breaks
// itself; missed targets show in its table.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));

/** Bundles `entryPoints` (the first is the bench's main) and calls `start` with its exports and the directory. */
export async function runBundled(name, entryPoints, start) {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const cache = join(root, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const out = mkdtempSync(join(cache, `bench-${name}-`));
  // Also on a crash that skips the finally below (an unhandled rejection ends the process at once).
  process.on('exit', () => rmSync(out, { recursive: true, force: true }));
  try {
    await build({
      absWorkingDir: root,
      entryPoints,
      outdir: out,
      // .mjs: under node_modules Node finds no package.json "type", and would read .js as CommonJS.
      outExtension: { '.js': '.mjs' },
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20.18',
      // Packages load from node_modules, as the CLI's vendor files do, so a child's memory is comparable.
      external: Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }),
      define: { __AGENTS_VERSION__: JSON.stringify(pkg.version) },
      logLevel: 'warning',
    });
    const main = Object.keys(entryPoints)[0];
    await start(await import(pathToFileURL(join(out, `${main}.mjs`)).href), out);
  } catch (err) {
    console.error(`bench:${name} broke:`, err);
    process.exitCode = 1;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
