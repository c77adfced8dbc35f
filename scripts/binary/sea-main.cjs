// The entry of the one-file executable (scripts/build-binary.mjs), what bin/agents.js is to the npm
// install. dist/ is in the executable as its assets, one per file, and loads as it does from the disk: a
// file only when the run imports it, so `--help` reads the same file of it and `mcp` alone loads the
// MCP SDK's chunk. A module hook serves each asset as an ES module at a URL of its own under ROOT, and
// resolves the chunks' relative imports against it; every other import (node:*) goes on as usual.
// CommonJS because the executable's main script may import() only Node's own modules; a require() made
// by createRequire goes through the hooks, and require() of an ES module without top-level await is
// Node's own since 22.12. Node's compile cache keeps V8's code for these modules between runs, as the
// launcher's does for dist/ (by URL and content, in the same place). Source maps are not in the
// executable: a --debug stack trace names our functions (the build keeps their names) and the chunks.
'use strict';
const { createRequire, enableCompileCache, registerHooks } = require('node:module');
const { getAsset } = require('node:sea');

enableCompileCache?.();
const ROOT = 'file:///agents-sea/';
registerHooks({
  resolve(specifier, context, nextResolve) {
    const inside = specifier.startsWith(ROOT);
    if (inside || (context.parentURL?.startsWith(ROOT) && /^\.\.?\//.test(specifier))) {
      const url = inside ? specifier : new URL(specifier, context.parentURL).href;
      return { url, format: 'module', shortCircuit: true };
    }
    return nextResolve(specifier, context);
  },
  load(url, context, nextLoad) {
    if (!url.startsWith(ROOT)) return nextLoad(url, context);
    return { format: 'module', source: getAsset(url.slice(ROOT.length), 'utf8'), shortCircuit: true };
  },
});
// `agents`, `agents --help`, `agents -h`, `agents --version`, `agents -V`: the root alone answers them, from a
// file of its own, as bin/agents.js does.
const ROOT_LINES = ['--help', '-h', '--version', '-V'];
const args = process.argv.slice(2);
const rootHelp = args.length === 0 || (args.length === 1 && ROOT_LINES.includes(args[0]));
const { run } = createRequire(__filename)(`${ROOT}${rootHelp ? 'help.js' : 'agents.js'}`);
run();
