// The esbuild options every build of the program shares: the CLI's dist/, the Action's bundle, the docs'
// copy of the commander tree, and the bench's commander-alone baseline (built as ours is, to be comparable).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join, resolve, sep } from 'node:path';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const CORE = join(SRC, 'core') + sep;

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

/**
 * The core's files run nothing when imported (declarations and constants), so a face that imports one name
 * through the core's door (src/core/index.ts) must not load every module the door names. Told so, esbuild
 * leaves out a module none of whose names is used, as it does for a package whose package.json says
 * `"sideEffects": false`.
 */
export const pureCore = {
  name: 'pure-core',
  setup(b) {
    // Our sources import a module by its .js name; the file is the .ts beside it. Resolved here without
    // build.resolve(), which, called from an onResolve, hung a build on a fresh install.
    b.onResolve({ filter: /^\.\.?\/.*\.js$/ }, (args) => {
      if (!args.importer.startsWith(SRC)) return undefined;
      const file = resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
      if (!file.startsWith(CORE) || !existsSync(file)) return undefined;
      return { path: file, sideEffects: false };
    });
  },
};

/**
 * One ES module bundle for Node, at the CLI's floor (so the suite runs every build under each Node it
 * supports). The CommonJS libraries (commander, undici, …) require Node's modules, and an ES module has no
 * `require`: each file gets one through the banner (esbuild's documented way for Node).
 */
export const nodeBundle = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node22.12',
  banner: {
    js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
  },
  define: { __AGENTS_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
  plugins: [pureCore],
};

/** What a shipped build adds: whitespace and syntax minified, our names kept (stack traces name them). */
export const shipped = { ...nodeBundle, minifyWhitespace: true, minifySyntax: true };
