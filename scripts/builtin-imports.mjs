// An esbuild plugin for dist/: an ES `import` of one of Node's own modules, ours or a bundled library's,
// is linked to `process.getBuiltinModule()`, the object `require()` returns, instead of Node's ES facade
// of it. Node makes a built-in's facade by reading every export, and some exports are getters that load
// more: `node:process`'s reads process.stdin (a stream for it, with fs's streams, fs/promises and
// readline), process.report and the finalization registry; `node:fs`'s loads fs/promises; `node:crypto`'s
// WebCrypto and perf_hooks. env-paths' `import process from 'node:process'` alone cost `show` about 4 ms
// and 3 MB that way. Linked as `require()` is, a built-in loads when the module importing it first runs.
//  - The module is Node's own, unchanged, and no library's file is: this is how the bundle links it, as the
//    banner's `require` links the CommonJS libraries' require() of the same modules.
//  - Each importer gets its own two-line module (keyed by its path): a module shared by entries that
//    reach it differently would be a chunk of its own, a file more for a run to read.
import { builtinModules } from 'node:module';
import { relative } from 'node:path';

const builtins = new Set(builtinModules);

/**
 * The module an importer gets: Node's own as its default export, and each export as a named one, read from
 * the module when the importer first runs. Each read is marked pure, so that esbuild drops the ones nothing
 * imports (a getter such as fs.promises is never read unless imported). The names are those of the Node
 * that builds; a name it lacks fails the build, as an import Node lacks fails to link.
 */
function facadeless(id) {
  const names = Object.keys(process.getBuiltinModule(id)).filter(
    (name) => /^[A-Za-z_$][\w$]*$/.test(name) && name !== 'default',
  );
  return [
    `const m = process.getBuiltinModule(${JSON.stringify(id)});`,
    'export default m;',
    ...names.map((name) => `export const ${name} = /* @__PURE__ */ (() => m.${name})();`),
  ].join('\n');
}

/** The plugin (needs Node 22.3 or later at run time, for process.getBuiltinModule). */
export const builtinImports = {
  name: 'builtin-imports',
  setup(build) {
    build.onResolve({ filter: /^(node:)?[a-z_/0-9]+$/ }, (args) => {
      if (args.kind !== 'import-statement' && args.kind !== 'dynamic-import') return undefined;
      const name = args.path.replace(/^node:/, '');
      if (!builtins.has(name)) return undefined;
      // Named by the importer's path from the checkout, which the bundle keeps as a label.
      return { path: `${relative(process.cwd(), args.importer)}#node:${name}`, namespace: 'builtin-import' };
    });
    build.onLoad({ filter: /.*/, namespace: 'builtin-import' }, (args) => ({
      contents: facadeless(args.path.slice(args.path.lastIndexOf('#') + 1)),
      loader: 'js',
    }));
  },
};
