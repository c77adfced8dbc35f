// Builds dist/ for bin/agents.js: one esbuild ES module build of the program (src/cli/main.ts) with every
// library it uses bundled in, so the package installs nothing and a global install is one package.
//  - Split where the program says `await import()`: each command's module, undici's, the emulator's and the
//    libraries only some runs use are chunks of their own, read only by a run that imports them.
//  - What src/cli/main.ts imports sits in agents.js itself: --help reads the launcher and dist/help.js, a
//    usage error agents.js and its one chunk. (Until the core was marked free of side effects, esbuild put
//    it in chunks of its own unless every file imported cli.ts through its `inject`; that is gone, measured
//    worth nothing since: bench/README.md.)
//  - What a command that runs loads (the context, the presenter, the HTTP client, the commands' run.ts) is
//    one chunk too, request-runtime.mjs's, with the small libraries it shares with lazily loaded ones:
//    `show --json` reads 5 files of dist/ where it read 34.
//  - No library's source is changed and nothing is imported by a private path: what a library's patch
//    release moves inside itself cannot break the build or the program.
//  - Our names are kept (whitespace and syntax are minified, identifiers not) and a source map is written
//    beside each file, so that a --debug stack trace names the functions and the src/ files they are in
//    (bin/agents.js turns source maps on only then).
// `--out DIR`: build there instead of dist/ (the test suite builds a private copy, so that two runs in one
// checkout never delete each other's binary).
// The GitHub Action (src/action/index.ts) is one file, dist-action/index.mjs, which action.yml names and git
// keeps (a runner runs it from the checkout). `--action` writes it (npm run build:action); a plain build
// leaves the committed file alone, so that the suite's freshness test compares it with a build of its own.
import { build } from 'esbuild';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { shipped } from './esbuild-options.mjs';
import { checkRunsReadAscii, checkRuntimeApart, requestRuntime } from './request-runtime.mjs';
import { builtinImports } from './builtin-imports.mjs';
import { fromSources } from './from-sources.mjs';
import { toolkitSideEffects } from './toolkit-side-effects.mjs';

const outArg = process.argv.indexOf('--out');
const out = outArg === -1 ? 'dist' : process.argv[outArg + 1];
rmSync(out, { recursive: true, force: true });

const program = await build({
  ...shipped,
  plugins: [...(shipped.plugins ?? []), requestRuntime('src'), builtinImports],
  metafile: true,
  entryPoints: { agents: 'src/cli/main.ts' },
  outdir: out,
  chunkNames: 'chunks/[name]-[hash]',
  splitting: true,
  sourcemap: 'linked',
  // A stack trace needs the mappings, not the text: the maps stay a fraction of the size.
  sourcesContent: false,
});
checkRuntimeApart(program.metafile, 'src/cli/main.ts');
checkRunsReadAscii(program.metafile, 'src/cli/main.ts');

// The root help's own entry (src/cli/help.ts): one file, dist/help.js, that bin/agents.js imports for
// `agents`, `agents --help`, `agents -h`, `--version` and `-V` instead of the program above. A build of its own, as the
// library's is: in the one above, every file imports cli.ts. The commands' heads (what the root help lists
// of each) are read from the whole program as the sources declare it, and given to it as data. It must
// stay one file of commander and the root: an `await import()` in what it reaches would be bundled whole.
const heads = await fromSources(
  "export { buildProgram } from './src/cli/program/program.ts';\nexport { headsOf } from './src/cli/program/root.ts';",
  ({ buildProgram, headsOf }) => headsOf(buildProgram(() => undefined, {})),
);
const help = await build({
  ...shipped,
  // A string of JSON: an object given to `define` is a module of its own, initialised from every module.
  define: { ...shipped.define, __AGENTS_HEADS__: JSON.stringify(JSON.stringify(heads)) },
  plugins: [...(shipped.plugins ?? []), builtinImports],
  metafile: true,
  entryPoints: { help: 'src/cli/help.ts' },
  outdir: out,
  sourcemap: 'linked',
  sourcesContent: false,
});
// Of the files whose code is in it: a module the core's door names but nothing uses is read, and left out.
const inHelp = new Set(Object.values(help.metafile.outputs).flatMap((o) => Object.keys(o.inputs)));
const lazy = Object.entries(help.metafile.inputs)
  .filter(([file]) => inHelp.has(file))
  .flatMap(([file, input]) =>
    input.imports.filter((i) => i.kind === 'dynamic-import').map((i) => `${file} -> ${i.path}`),
  );
if (lazy.length > 0)
  throw new Error(`src/cli/help.ts reaches an await import(), which its build would bundle: ${lazy}`);

// The keychain's helper (src/core/config/keychain-helper.ts): a file of its own, dist/keychain-helper.js, that
// src/core/config/key-store.ts runs in a child process. @napi-rs/keyring, a native addon, is never bundled: the
// helper imports it as an external, from the package's `dependencies`.
await build({
  ...shipped,
  entryPoints: { 'keychain-helper': 'src/core/config/keychain-helper.ts' },
  external: ['@napi-rs/keyring'],
  outdir: out,
  sourcemap: 'linked',
  sourcesContent: false,
});

// The library (`import { Agents } from 'agents-cli'`, src/sdk/index.ts): a build of its own into dist/index.js,
// its chunks under dist/lib/. Beside the CLI's, not with it: in one build esbuild would split the CLI's
// chunks again by which of the two entries reach each module, and --help and show would read more files. No top-level await anywhere in it, so that require() of it works (Node 22.12 and
// later). esbuild's metafile lists what went in, for the test that the import loads no CLI code.
const library = await build({
  ...shipped,
  entryPoints: { index: 'src/sdk/index.ts' },
  outdir: out,
  chunkNames: 'lib/[name]-[hash]',
  splitting: true,
  sourcemap: 'linked',
  sourcesContent: false,
  metafile: true,
});
const work = join(dirname(out), `.${basename(out)}-work`);
mkdirSync(work, { recursive: true });
writeFileSync(join(work, 'library-meta.json'), JSON.stringify(library.metafile));
// Its types (dist/index.d.ts, one file rolled up by API Extractor): --types, as `npm run build` does. The
// suite's build leaves them to test/process/library.test.ts, which makes them beside its other tools.
if (process.argv.includes('--types')) {
  const { libraryTypes } = await import('./library-types.mjs');
  libraryTypes(out, join(work, 'api'));
}

// One file, every `await import()` inlined: a runner reads the action from the repository at a ref.
// Beside a private --out build (the suite's), or, with --action, the committed one.
const action = process.argv.includes('--action');
if (outArg !== -1 || action)
  await build({
    ...shipped,
    plugins: [...(shipped.plugins ?? []), toolkitSideEffects],
    entryPoints: ['src/action/index.ts'],
    outfile: action ? join('dist-action', 'index.mjs') : join(dirname(out), 'dist-action', 'index.mjs'),
  });
