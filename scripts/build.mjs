// Builds dist/ for bin/agents.js, in parts the launcher loads when a run first needs them, each compiled
// under a V8 code cache of its own (see bin/agents.js):
//  - dist/agents.cjs: the program (src/cli.ts) and commander as one CommonJS file. Each command's module
//    is in it but evaluated only when that command runs (esbuild wraps what `import()` reaches).
//  - dist/http.cjs: the parts of undici a request needs (src/api/http.ts), loaded on the first request.
//  - dist/vendor/*.cjs: the libraries only some runs need (conf, proper-lockfile, ora, chalk, the prompts,
//    the markdown renderer, the browser opener, and ajv for conf when it writes), each bundled on its own
//    and required on first use, so a run that does not need one never reads it. Nothing is left to require from node_modules at run time.
// CommonJS, because the launcher compiles these files with a V8 code cache: Node 20 has no compile cache
// of its own, and ESM cannot take one.
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
  'proper-lockfile': 'lockfile',
  ora: 'ora',
  chalk: 'chalk',
  '@inquirer/prompts': 'prompts',
  marked: 'marked',
  'marked-terminal': 'marked-terminal',
  open: 'open',
  'string-width': 'string-width',
  // Only with AGENTS_BUDGET_URL: the budget of a fleet kept in Redis (src/api/budget/redis-store.ts).
  ioredis: 'ioredis',
};

// Libraries taken through their ES module build (`import` condition; marked-terminal's CommonJS build has
// highlight.js, 1.7 MB, inlined). module.exports is the namespace: only their named exports are used (a
// default export would not survive Node's interop, which takes module.exports itself as the default).
const ESM_VENDOR = {
  marked: 'export * from "marked";',
  'marked-terminal': 'export * from "marked-terminal";',
  // CommonJS whose module.exports is the Redis class with its named exports on it already (getters that
  // the usual Object.assign would fail to overwrite): taken as it is.
  ioredis: 'module.exports = require("ioredis");',
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

/**
 * Replaces `from` with `to` in one file of a package as esbuild loads it. The build fails if the text is
 * not there (the package changed): a silent miss would quietly bring back what the patch keeps out.
 */
function patch(name, file, from, to) {
  return {
    name,
    setup(b) {
      b.onLoad({ filter: file }, (args) => {
        const source = readFileSync(args.path, 'utf8');
        if (!source.includes(from)) throw new Error(`${name}: ${args.path} no longer contains ${from}`);
        return { contents: source.replace(from, to), loader: 'js' };
      });
    },
  };
}

// conf imports at load time what only some of its uses need. We read the config and state files with
// it on every run that needs a setting or `last`; these load on first use instead:
//  - ajv and ajv-formats (the schema, compiled only when a schema is given: we give one to write the
//    config file): in dist/vendor/ajv.cjs, not even read before then;
//  - semver (migrations, which we do not use), node:crypto (encryption, likewise), atomically (writes).
// Each stand-in is an ES module whose exports call through to the real one, so nothing is evaluated early.
const CONF_LAZY = {
  'ajv/dist/2020.js': `export function Ajv2020(options) { return new (require('./ajv.cjs').Ajv2020)(options); }`,
  'ajv-formats': `export default { get default() { return require('./ajv.cjs').formats; } };`,
  semver: `export default new Proxy({}, { get: (_, name) => require('semver')[name] });`,
  'node:crypto': `export default new Proxy({}, { get: (_, name) => require('node:crypto')[name] });`,
  atomically: `export function writeFileSync(...args) { return require('atomically').writeFileSync(...args); }`,
};
const lazyConfImports = {
  name: 'lazy-conf-imports',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) =>
      /[\\/]node_modules[\\/]conf[\\/]dist[\\/]/.test(args.importer) && Object.hasOwn(CONF_LAZY, args.path)
        ? { path: args.path, namespace: 'lazy-conf' }
        : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-conf' }, (args) => ({
      contents: CONF_LAZY[args.path],
      loader: 'js',
      resolveDir: resolve('node_modules/conf'),
    }));
    b.onResolve({ filter: /^\.\/ajv\.cjs$/ }, () => ({ path: './ajv.cjs', external: true }));
  },
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
    plugins: name === 'marked-terminal' ? [stubs] : name === 'conf' ? [lazyConfImports] : [],
  });
}
await build({
  ...common,
  stdin: {
    contents: `module.exports = { Ajv2020: require('ajv/dist/2020.js').Ajv2020, formats: require('ajv-formats').default };`,
    resolveDir: resolve('node_modules/conf'),
  },
  outfile: `${out}/vendor/ajv.cjs`,
});

// undici's HTTP/1.1 client requires its HTTP/2 one at load time, and that requires node:http2 (with
// node:tls and node:crypto: some 15 ms on Node 20). HTTP/2 is used only when a dispatcher allows it, which
// ours never do: it is required on first use instead.
const lazyHttp2 = patch(
  'lazy-http2',
  /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/,
  "const connectH2 = require('./client-h2.js')",
  "const connectH2 = (...args) => require('./client-h2.js')(...args)",
);

await build({
  ...common,
  entryPoints: ['src/api/http.ts'],
  outfile: `${out}/http.cjs`,
  plugins: [lazyHttp2],
});

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

// Vendor libraries the program calls synchronously but needs only now and then: their import becomes a
// function that requires the vendor file on its first call, rather than a require when the importing
// module is evaluated. string-width sets up an Intl.Segmenter and emoji patterns (about 20 ms) as it loads,
// and src/util/width.ts calls it only for text that is not plain ASCII.
const LAZY_VENDOR = {
  'string-width': `export default function stringWidth(...args) { return require('./vendor/string-width.cjs')(...args); }`,
};
const lazyVendor = {
  name: 'lazy-vendor',
  setup(b) {
    const names = Object.keys(LAZY_VENDOR).map((n) => n.replace(/[-/@]/g, (c) => `\\${c}`));
    b.onResolve({ filter: new RegExp(`^(${names.join('|')})$`) }, (args) =>
      args.namespace === 'file' ? { path: args.path, namespace: 'lazy-vendor' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'lazy-vendor' }, (args) => ({
      contents: LAZY_VENDOR[args.path],
      loader: 'js',
    }));
    b.onResolve({ filter: /^\.\/vendor\// }, (args) =>
      args.namespace === 'lazy-vendor' ? { path: args.path, external: true } : undefined,
    );
  },
};

/** The program's imports of the other parts become requires of their files. */
const parts = {
  name: 'parts',
  setup(b) {
    const names = Object.keys(VENDOR).map((n) => n.replace(/[/@]/g, (c) => `\\${c}`));
    b.onResolve({ filter: new RegExp(`^(${names.join('|')})$`) }, (args) => ({
      path: `./vendor/${VENDOR[args.path]}.cjs`,
      external: true,
    }));
    b.onResolve({ filter: /^\.\/http\.js$/ }, (args) =>
      /[\\/]src[\\/]api$/.test(args.resolveDir) ? { path: './http.cjs', external: true } : undefined,
    );
    // The emulator and the completion scripts are parts of their own: commands no other run needs.
    b.onResolve({ filter: /^\.\.\/(emulator|completion)\/index\.js$/ }, (args) =>
      /[\\/]src[\\/]commands$/.test(args.resolveDir)
        ? { path: `./${args.path.split('/')[1]}.cjs`, external: true }
        : undefined,
    );
    // undici belongs in dist/http.cjs alone; imported anywhere else it would come into the program whole.
    b.onResolve({ filter: /^undici(\/|$)/ }, (args) => ({
      errors: [
        { text: `${args.importer} imports ${args.path}: import undici's parts in src/api/http.ts only` },
      ],
    }));
  },
};

// Parts the program loads for one command each: the fewer functions dist/agents.cjs holds, the less every
// run reads and deserialises from its code cache (about 50 µs a kB of program on Node 20).
// Our own parts also get short identifiers (277 -> 208 kB for the program: about 1.3 ms off every run on
// Node 20, half of what --help costs over a bare node). Nothing of ours or commander's depends on a function's
// name (errors name themselves, commander's are told apart with instanceof); the vendor files and undici keep
// theirs, since libraries do. A stack trace names minified functions: --debug's request trace is the tool.
const ours = { ...common, minifyIdentifiers: true };
for (const part of ['emulator', 'completion']) {
  await build({ ...ours, entryPoints: [`src/${part}/index.ts`], outfile: `${out}/${part}.cjs` });
}

await build({
  ...ours,
  entryPoints: ['src/cli.ts'],
  outfile: `${out}/agents.cjs`,
  define: { __AGENTS_VERSION__: JSON.stringify(pkg.version) },
  plugins: [lazyChildProcess, lazyVendor, parts],
});

// The launcher keys each part's code cache on this: a cache made for other code must never be used.
const PARTS = [
  'agents',
  'http',
  'emulator',
  'completion',
  ...Object.values(VENDOR).map((f) => `vendor/${f}`),
  'vendor/ajv',
];
for (const file of PARTS.map((p) => `${p}.cjs`)) {
  const bytes = readFileSync(new URL(file, dist));
  const id = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  writeFileSync(new URL(file, dist), Buffer.concat([Buffer.from(`// build ${id}\n`), bytes]));
}
