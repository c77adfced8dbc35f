// An esbuild plugin for dist/: the code every command that runs (as opposed to --help or a usage error)
// loads is one chunk, `request-runtime`, not thirty small ones.
//
// esbuild splits by the set of entry points that reach a module, and each `await import()` is an entry: the
// run context, the presenter, the HTTP client, each command's run.ts, … Modules shared by different sets of
// those sat in a chunk per set, and `show --json` read 34 files of dist/, each costing the ES module loader
// about half a millisecond of CPU (resolving, reading, its compile cache, linking), more than the code in
// them. This makes what only runs import one chunk:
//  - a virtual module, the hub, names the request runtime with `require()` calls that never run (behind a
//    global that is never set): edges for esbuild's chunking only, evaluated by nothing;
//  - every module of src/ that is the target of an `await import()` gets `import` of the hub appended, so
//    the hub and all it reaches are reached by the same set of entries, and are one chunk.
// What it names: run/run-command.ts (the context, the presenter, the HTTP client and its plain wire: what a
// run imports statically) and each command's run.ts but the emulator's, mcp's and acp's (each brings a server
// and its library, loaded by that command alone).
// The modules themselves are unchanged; nothing runs that did not, in the same order: each module is still
// evaluated by the `await import()` that loads it. Help and usage errors load none of it (cli.ts's chunk
// does not reach the hub: build.mjs checks that in the metafile).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import { join, resolve, sep } from 'node:path';

const HUB = 'agents:request-runtime';

/** The modules the hub names, absolute. */
function runtimeModules(src) {
  const commands = readdirSync(join(src, 'cli', 'commands'))
    .filter((name) => !['emulator', 'mcp', 'acp', 'board'].includes(name))
    .map((name) => join(src, 'cli', 'commands', name, 'run.ts'))
    .filter((file) => existsSync(file));
  return [join(src, 'cli', 'run', 'run-command.ts'), ...commands];
}

/**
 * Our modules an `await import('./…')` of src/ loads, absolute: found in the text, so that the set is
 * whole before esbuild loads any file (a module it met first through a static import would miss the hub).
 */
function dynamicTargets(src) {
  const targets = new Set();
  for (const entry of readdirSync(src, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const dir = entry.parentPath;
    const text = readFileSync(join(dir, entry.name), 'utf8');
    for (const [, path] of text.matchAll(/\bimport\(\s*'(\.{1,2}\/[^']+)\.js'\s*\)/g))
      targets.add(resolve(dir, `${path}.ts`));
  }
  return targets;
}

/** The plugin; `src` is the source directory (its files are the only ones given the hub). */
export function requestRuntime(src) {
  const root = resolve(src);
  const targets = dynamicTargets(root);
  return {
    name: 'request-runtime',
    setup(build) {
      build.onResolve({ filter: /^agents:request-runtime$/ }, () => ({ path: HUB, namespace: 'agents' }));
      build.onLoad({ filter: /.*/, namespace: 'agents' }, () => ({
        contents: `if (globalThis.__agentsBuildEdgesOnly) {\n${runtimeModules(root)
          .map((file) => `  require(${JSON.stringify(file)});\n`)
          .join('')}}\n`,
        resolveDir: root,
        loader: 'js',
      }));
      // A library our modules load by `await import('pkg')` (conf, ora, chalk, …) is an entry too, and the
      // modules it shares with the runtime (env-paths with conf, string-width and ansi-regex with ora) were
      // reached by one entry more than the rest of the runtime: chunks of their own, three more files for
      // every run to read. Its import() is given a module of ours instead, which is the library (every
      // export, and its default) and imports the hub: the shared modules join the runtime's chunk. The
      // library's own modules are untouched and still sit in chunks its import() alone loads.
      //  - Named `.mjs`: esbuild then links a CommonJS library as Node does, module.exports as the default
      //    (what `(await import('ajv')).default.default` relies on), as it did from our own modules.
      //  - The default is read by a computed key: a library without one (marked, @inquirer/prompts) would
      //    make esbuild warn that the read is always undefined, which it is, as it was before.
      build.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.kind !== 'dynamic-import' || args.namespace !== 'file') return undefined;
        if (!args.importer.startsWith(root + sep) || isBuiltin(args.path)) return undefined;
        return {
          path: `${args.path}.mjs`,
          namespace: 'agents-lazy',
          pluginData: { resolveDir: args.resolveDir },
        };
      });
      build.onLoad({ filter: /.*/, namespace: 'agents-lazy' }, (args) => {
        const spec = JSON.stringify(args.path.slice(0, -'.mjs'.length));
        return {
          contents: `export * from ${spec};\nimport * as lib from ${spec};\nconst key = 'default';\nexport default lib[key];\nimport ${JSON.stringify(HUB)};\n`,
          resolveDir: args.pluginData.resolveDir,
          loader: 'js',
        };
      });
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        if (!targets.has(args.path)) return undefined;
        const contents = `${readFileSync(args.path, 'utf8')}\nimport ${JSON.stringify(HUB)};\n`;
        return { contents, loader: 'ts' };
      });
    },
  };
}

/** Throws when the hub is in a chunk every run loads (a module of cli.ts's imports got it). */
export function checkRuntimeApart(metafile, entryPoint) {
  const [entry] = Object.entries(metafile.outputs).find(([, o]) => o.entryPoint === entryPoint) ?? [];
  if (entry === undefined) throw new Error(`scripts/request-runtime.mjs: no output for ${entryPoint}`);
  const statics = metafile.outputs[entry].imports.filter((i) => i.kind === 'import-statement');
  const loaded = [entry, ...statics.map((i) => i.path)];
  if (loaded.some((out) => Object.keys(metafile.outputs[out]?.inputs ?? {}).some((i) => i.endsWith(HUB))))
    throw new Error(
      'scripts/request-runtime.mjs: the request runtime landed in the chunk --help loads (a module that ' +
        'src/cli/main.ts imports is also loaded by `await import()`): help and usage errors would load it all',
    );
}

/**
 * Throws when a file every command that runs reads (agents.js, the chunk of what cli.ts imports, the
 * request runtime's chunk) is not ASCII. One character beyond Latin-1 makes V8 hold the file's whole source
 * as two-byte text, and Node decode it on its slow path: about 1 ms of every run for the runtime's chunk.
 * esbuild escapes such characters in strings and names, not in a regular expression's literal.
 */
export function checkRunsReadAscii(metafile, entryPoint) {
  const outputs = Object.entries(metafile.outputs);
  const [entry, output] = outputs.find(([, o]) => o.entryPoint === entryPoint) ?? [];
  const hub = outputs.find(([, o]) => Object.keys(o.inputs).some((i) => i.endsWith(HUB)))?.[0];
  if (entry === undefined || hub === undefined)
    throw new Error(`scripts/request-runtime.mjs: no output for ${entryPoint} or for the hub`);
  const statics = output.imports.filter((i) => i.kind === 'import-statement').map((i) => i.path);
  for (const file of [entry, ...statics, hub]) {
    const at = readFileSync(file).findIndex((byte) => byte > 0x7f);
    if (at !== -1)
      throw new Error(
        `${file} is not ASCII (byte ${at}): escape the character in src/ (a regular expression's \\u…)`,
      );
  }
}
