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
// The keychain's helper (src/core/config/keychain-helper.ts, started by src/core/config/key-store.ts as this executable
// again with AGENTS_KEYCHAIN_HELPER=1): the native addon of @napi-rs/keyring is an asset of the executable
// (keyring.node, for the platform it was built on), written once to a private file named by its hash and
// loaded from there (Node loads an addon from a file only). An executable built without one has no
// loader: the helper then says no keychain answers, and login keeps the key in the config file.
if (process.env.AGENTS_KEYCHAIN_HELPER === '1') {
  let addon;
  try {
    addon = getAsset('keyring.node');
  } catch {
    addon = undefined;
  }
  if (addon !== undefined) {
    globalThis[Symbol.for('agents.keyring-loader')] = () => loadAddon(new Uint8Array(addon));
  }
  createRequire(__filename)(`${ROOT}keychain-helper.js`);
} else {
  main();
}

/** The addon's private copy: the user's cache directory, 0700, the file named by the addon's hash. */
function loadAddon(bytes) {
  const { createHash } = require('node:crypto');
  const fs = require('node:fs');
  const { homedir } = require('node:os');
  const { join } = require('node:path');
  const home = homedir();
  const base =
    process.platform === 'win32'
      ? (process.env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'))
      : process.platform === 'darwin'
        ? join(home, 'Library', 'Caches')
        : process.env.XDG_CACHE_HOME || join(home, '.cache');
  const dir = join(base, 'agents');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const hash = createHash('sha256').update(bytes).digest('hex');
  const file = join(dir, `keyring-${hash.slice(0, 16)}.node`);
  // A copy that is not the addon (cut short, changed) is written again: the hash of what is there decides.
  let same = false;
  try {
    same = createHash('sha256').update(fs.readFileSync(file)).digest('hex') === hash;
  } catch {
    same = false;
  }
  if (!same) {
    // Written beside it and renamed: two helpers at once never load a half-written file.
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, bytes, { mode: 0o700 });
    fs.renameSync(tmp, file);
  }
  const module = { exports: {} };
  process.dlopen(module, file);
  return module.exports;
}

// `agents`, `agents --help`, `agents -h`, `agents --version`, `agents -V`: the root alone answers them, from a
// file of its own, as bin/agents.js does.
function main() {
  const ROOT_LINES = ['--help', '-h', '--version', '-V'];
  const args = process.argv.slice(2);
  const rootHelp = args.length === 0 || (args.length === 1 && ROOT_LINES.includes(args[0]));
  const { run } = createRequire(__filename)(`${ROOT}${rootHelp ? 'help.js' : 'agents.js'}`);
  run();
}
