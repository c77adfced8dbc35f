// The esbuild options every build of the program shares: the CLI's dist/, the Action's bundle, the docs'
// copy of the commander tree, and the bench's commander-alone baseline (built as ours is, to be comparable).
import { readFileSync } from 'node:fs';

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
    b.onResolve({ filter: /^\.\.?\// }, async (args) => {
      if (args.pluginData?.pureCore) return undefined;
      const r = await b.resolve(args.path, {
        kind: args.kind,
        importer: args.importer,
        resolveDir: args.resolveDir,
        pluginData: { pureCore: true },
      });
      if (r.errors.length > 0 || !/[\\/]src[\\/]core[\\/]/.test(r.path)) return undefined;
      return { ...r, sideEffects: false };
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
