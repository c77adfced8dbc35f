// Builds dist/ for bin/agents.js:
//  - dist/cli.js: src/cli.ts as ESM with code splitting, so each command's module (and the heavy
//    dependencies it imports) is a separate chunk loaded only when that command runs;
//  - dist/cli.cjs: the same program as one CommonJS file, which the launcher runs first (parse only) to
//    answer --help, --version and usage errors without Node's ESM loader;
//  - dist/help.txt: what that program prints for `--help` on a pipe, for the launcher's lone --help;
//  - dist/v8-cache/: a V8 code cache of dist/cli.cjs for the Node that runs this build; the launcher
//    uses it only under the same Node and V8.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
rmSync(new URL('../dist', import.meta.url), { recursive: true, force: true });

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20.18',
  // Runtime dependencies stay in node_modules: they are pinned by the lock file and installed with us.
  // except commander: bundled, it loads without a trip through node_modules and the CJS loader.
  external: Object.keys(pkg.dependencies).filter((name) => name !== 'commander'),
  define: { __AGENTS_VERSION__: JSON.stringify(pkg.version) },
  sourcemap: false,
  logLevel: 'warning',
};

// commander requires node:child_process at load time (about 2 ms on Node 20) for executable
// subcommands alone, which we do not have: hand it a stand-in that loads the module on first use.
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)
        ? { path: 'node:child_process', namespace: 'lazy-child-process' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, name) => require('node:child_process')[name] });",
      loader: 'js',
    }));
  },
};

// In the parse-only bundle no action runs, so nothing it imports lazily is needed: each such import()
// becomes a module that throws, rather than a copy of every command in the file.
const noDynamicImports = {
  name: 'no-dynamic-imports',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) =>
      args.kind === 'dynamic-import' ? { path: args.path, namespace: 'parse-only' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'parse-only' }, (args) => ({
      contents: `throw new Error(${JSON.stringify(
        `dist/cli.cjs only parses; ${args.path} runs from dist/cli.js (bin/agents.js hands off)`,
      )});`,
      loader: 'js',
    }));
  },
};

await build({
  ...common,
  entryPoints: { cli: 'src/cli.ts' },
  outdir: 'dist',
  splitting: true,
  format: 'esm',
  // commander is CommonJS; its require() of node built-ins needs a real require in ESM output.
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
  chunkNames: 'chunks/[name]-[hash]',
  plugins: [lazyChildProcess],
});

await build({
  ...common,
  entryPoints: ['src/cli.ts'],
  outfile: 'dist/cli.cjs',
  format: 'cjs',
  // Without comments: half the bytes to read, and pure ASCII (one '…' in a comment made V8 keep the
  // whole source as a two-byte string). Names stay, so stack traces under --debug still read.
  minifyWhitespace: true,
  plugins: [lazyChildProcess, noDynamicImports],
});

// The code cache: load dist/cli.cjs with the launcher's own loader in a fresh Node, answer --help and
// --version (so the functions they run are compiled too, not only the top level), then save what V8 has
// compiled. A second process checks that V8 accepts it; if not, there is no cache and nothing is lost.
const launcher = fileURLToPath(new URL('../bin/agents.js', import.meta.url));
const write = `
  const { mkdirSync, writeFileSync } = require('node:fs');
  const { dirname } = require('node:path');
  const { codeCachePath, loadParserWithCache } = require(${JSON.stringify(launcher)});
  const { exports, script } = loadParserWithCache(undefined);
  (async () => {
    for (const args of [['--help'], ['--version'], ['create', '--help']]) {
      await exports.main(['node', 'agents', ...args], { parseOnly: true });
    }
    mkdirSync(dirname(codeCachePath()), { recursive: true });
    writeFileSync(codeCachePath(), script.createCachedData());
    process.exitCode = 0;
  })();`;
const check = `
  const { readFileSync, rmSync } = require('node:fs');
  const { codeCachePath, loadParserWithCache } = require(${JSON.stringify(launcher)});
  if (loadParserWithCache(readFileSync(codeCachePath())).script.cachedDataRejected) {
    rmSync(codeCachePath());
    console.error('warning: V8 rejected the code cache of dist/cli.cjs; the launcher will compile it');
  }`;
// NODE_OPTIONS may carry V8 flags, which would make a cache that a plain `node` rejects.
const env = { ...process.env };
delete env.NODE_OPTIONS;
for (const code of [write, check]) {
  const r = spawnSync(process.execPath, ['-e', code], { env, stdio: ['ignore', 'ignore', 'pipe'] });
  if (r.status !== 0) throw new Error(`code cache for dist/cli.cjs: ${r.stderr}`);
  process.stderr.write(r.stderr);
}

// The root help as commander prints it on a pipe: 80 columns, no colour. Printed twice, from a bare
// environment and from one full of settings; unless both runs agree and succeed quietly, no file is
// written and the launcher always asks commander.
const parser = fileURLToPath(new URL('../dist/cli.cjs', import.meta.url));
const printHelp = `require(${JSON.stringify(parser)}).main(['node', 'agents', '--help'], { parseOnly: true });`;
const helps = [
  { PATH: process.env.PATH },
  {
    ...env,
    NO_COLOR: '1',
    COLUMNS: '50',
    TERM: 'dumb',
    AGENTS_PROFILE: 'build-check',
    AGENTS_BASE_URL: 'http://build-check.invalid',
    AGENTS_AGENT: 'codex',
    AGENTS_DEBUG: '1',
  },
].map((helpEnv) => spawnSync(process.execPath, ['-e', printHelp], { env: helpEnv, encoding: 'utf8' }));
if (
  helps.every((h) => h.status === 0 && h.stderr === '' && h.stdout !== '' && h.stdout === helps[0].stdout)
) {
  writeFileSync(new URL('../dist/help.txt', import.meta.url), helps[0].stdout);
} else {
  console.error('warning: `agents --help` depends on the environment or failed; no dist/help.txt');
}
