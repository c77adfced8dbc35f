// `npm run bench:poll`: bundles the TypeScript bench under bench/poll/ (and the src modules it imports)
// with esbuild, since Node 20 cannot import .ts, then runs it. The bundle goes to a fresh directory under
// node_modules/.cache so that the runtime dependencies it leaves external resolve as in the real build.
// Exits 1 only when the bench itself breaks; missed targets show in the table.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const cache = join(root, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const out = mkdtempSync(join(cache, 'bench-poll-'));
// Also on a crash that skips the finally below (an unhandled rejection ends the process at once).
process.on('exit', () => rmSync(out, { recursive: true, force: true }));

try {
  await build({
    absWorkingDir: root,
    entryPoints: { main: 'bench/poll/main.ts', child: 'bench/poll/burst-child.ts' },
    outdir: out,
    // .mjs: under node_modules Node finds no package.json "type", and would read .js as CommonJS.
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.18',
    // As in scripts/build.mjs: runtime dependencies load from node_modules, so the child's memory is the CLI's.
    external: Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }),
    define: { __AGENTS_VERSION__: JSON.stringify(pkg.version) },
    logLevel: 'warning',
  });
  const { run } = await import(pathToFileURL(join(out, 'main.mjs')).href);
  await run({ childScript: join(out, 'child.mjs'), argv: process.argv.slice(2) });
} catch (err) {
  console.error('bench:poll broke:', err);
  process.exitCode = 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
