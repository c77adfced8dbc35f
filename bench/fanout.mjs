// `npm run bench:fanout`: bundles the TypeScript bench under bench/fanout/ (and the src modules it imports:
// the emulator, the shared limiter for its cost figure) with esbuild, since Node 20 cannot import .ts,
// then runs it against the built binary (npm run build, which the npm script runs first). The bundle goes
// to a fresh directory under node_modules/.cache so that the dependencies it leaves external resolve.
// Exits 1 only when the bench itself breaks; missed targets show in the table.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const cache = join(root, 'node_modules', '.cache');
mkdirSync(cache, { recursive: true });
const out = mkdtempSync(join(cache, 'bench-fanout-'));
process.on('exit', () => rmSync(out, { recursive: true, force: true }));

try {
  await build({
    absWorkingDir: root,
    entryPoints: { main: 'bench/fanout/main.ts' },
    outdir: out,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.18',
    external: Object.keys({ ...pkg.dependencies, ...pkg.devDependencies }),
    define: { __AGENTS_VERSION__: JSON.stringify(pkg.version) },
    logLevel: 'warning',
  });
  const { run } = await import(pathToFileURL(join(out, 'main.mjs')).href);
  await run({ bin: join(root, 'bin', 'agents.js'), argv: process.argv.slice(2) });
} catch (err) {
  console.error('bench:fanout broke:', err);
  process.exitCode = 1;
} finally {
  rmSync(out, { recursive: true, force: true });
}
