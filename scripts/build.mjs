// Bundles src/cli.ts into dist/ with code splitting, so each command's module (and the heavy
// dependencies it imports) is a separate chunk loaded only when that command runs.
import { build } from 'esbuild';
import { readFileSync, rmSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

await build({
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20.18',
  // Runtime dependencies stay in node_modules: they are pinned by the lock file and installed with us.
  // except commander: bundled into the entry chunk, it loads without a trip through the CJS loader,
  // which is most of what --help costs.
  external: Object.keys(pkg.dependencies).filter((name) => name !== 'commander'),
  define: { __AGENTS_VERSION__: JSON.stringify(pkg.version) },
  // commander is CommonJS; its require() of node built-ins needs a real require in ESM output.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  chunkNames: 'chunks/[name]-[hash]',
  sourcemap: false,
  logLevel: 'warning',
});
