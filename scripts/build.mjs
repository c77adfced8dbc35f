// Builds dist/ for bin/agents.js:
//  - dist/agents.cjs: the program (src/cli.ts) and commander as one CommonJS file. Each command's module
//    is in it but evaluated only when that command runs (esbuild wraps what `import()` reaches).
//  - dist/vendor/*.cjs: the libraries only some runs need (conf, ora, chalk, the prompts, the markdown
//    renderer, the browser opener), each bundled on its own and required on first use, so a run that does
//    not need one never reads it.
// One CommonJS file, because bin/agents.js compiles it with a V8 code cache (see there): Node 20 has no
// compile cache of its own, and ESM cannot take one.
import { build } from 'esbuild';
import { createHash } from 'node:crypto';
import { Buffer } from 'node:buffer';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
// `--out DIR`: build there instead of dist/ (the test suite builds a private copy, so that two runs in one
// checkout never delete each other's binary).
const outArg = process.argv.indexOf('--out');
const out = outArg === -1 ? 'dist' : process.argv[outArg + 1];
const dist = pathToFileURL(`${resolve(out)}/`);
rmSync(dist, { recursive: true, force: true });

/** Libraries bundled apart, by the name the sources import. */
const VENDOR = {
  conf: 'conf',
  ora: 'ora',
  chalk: 'chalk',
  '@inquirer/prompts': 'prompts',
  marked: 'marked',
  'marked-terminal': 'marked-terminal',
  open: 'open',
};

// Libraries taken through their ES module build (`import` condition; marked-terminal's CommonJS build has
// highlight.js, 1.7 MB, inlined). module.exports is the namespace: only their named exports are used (a
// default export would not survive Node's interop, which takes module.exports itself as the default).
const ESM_VENDOR = {
  marked: 'export * from "marked";',
  'marked-terminal': 'export * from "marked-terminal";',
};

// What marked-terminal imports but agents never uses, replaced by stubs: src/output/markdown.ts draws code
// blocks (no syntax highlighting: highlight.js would cost over 100 ms on every reply) and links itself,
// and turns emoji short codes off. The vendor file goes from 1.9 MB to under 80 kB.
const STUBS = {
  'cli-highlight': 'exports.highlight = (code) => code;',
  'node-emoji': 'exports.get = () => undefined;',
  'supports-hyperlinks': 'module.exports = { stdout: false, stderr: false };',
};
const stubs = {
  name: 'stubs',
  setup(b) {
    const names = Object.keys(STUBS).map((n) => n.replace(/[-/]/g, (c) => `\\${c}`));
    b.onResolve({ filter: new RegExp(`^(${names.join('|')})$`) }, (args) => ({
      path: args.path,
      namespace: 'stub',
    }));
    b.onLoad({ filter: /.*/, namespace: 'stub' }, (args) => ({ contents: STUBS[args.path], loader: 'js' }));
  },
};

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20.18',
  format: 'cjs',
  // `import()` of a bundled or vendor module becomes a require (esbuild's interop keeps `default` right).
  supported: { 'dynamic-import': false },
  minifyWhitespace: true,
  minifySyntax: true,
  sourcemap: false,
  logLevel: 'warning',
};

// The vendor libraries: one file each, all of the library in it. Their module.exports is what an ES
// import of the library sees as its default export, with the named exports on it too (the program's
// bundle imports them with Node's interop: default = module.exports).
for (const [name, file] of Object.entries(VENDOR)) {
  const contents =
    ESM_VENDOR[name] ??
    `const ns = require(${JSON.stringify(name)});
module.exports = ns.default !== undefined ? Object.assign(ns.default, ns) : ns;`;
  await build({
    ...common,
    stdin: { contents, resolveDir: '.', loader: 'js' },
    outfile: `${out}/vendor/${file}.cjs`,
    plugins: name === 'marked-terminal' ? [stubs] : [],
  });
}

// commander requires node:child_process at load time (net, streams, dgram: about 3 ms on Node 20) for
// executable subcommands alone, which we do not have: it gets the module on first use instead.
const lazyChildProcess = {
  name: 'lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
      /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer)
        ? { path: 'child_process', namespace: 'lazy-child-process' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-child-process' }, () => ({
      contents: "module.exports = new Proxy({}, { get: (_, name) => require('node:child_process')[name] });",
      loader: 'js',
    }));
  },
};

const vendorImports = {
  name: 'vendor',
  setup(b) {
    const names = Object.keys(VENDOR).map((n) => n.replace(/[/@]/g, (c) => `\\${c}`));
    b.onResolve({ filter: new RegExp(`^(${names.join('|')})$`) }, (args) => ({
      path: `./vendor/${VENDOR[args.path]}.cjs`,
      external: true,
    }));
  },
};

await build({
  ...common,
  entryPoints: ['src/cli.ts'],
  outfile: `${out}/agents.cjs`,
  // What stays a package of its own in node_modules (CommonJS, required when first used).
  external: ['undici', 'proper-lockfile'],
  define: { __AGENTS_VERSION__: JSON.stringify(pkg.version) },
  plugins: [lazyChildProcess, vendorImports],
});

// The launcher keys its code cache on this: a cache made for other code must never be used.
const bundle = readFileSync(new URL('agents.cjs', dist));
const id = createHash('sha256').update(bundle).digest('hex').slice(0, 16);
writeFileSync(new URL('agents.cjs', dist), Buffer.concat([Buffer.from(`// build ${id}\n`), bundle]));
