#!/usr/bin/env node
// The launcher. CommonJS on purpose (bin/package.json says so): Node's ESM loader costs about 3 ms before
// the first line of an ES module runs, a good part of what `agents --help` may cost in all.
//
// dist/cli.cjs is a CommonJS bundle of the same program (src/cli.ts with commander), run with
// `parseOnly`: it answers --help, --version and usage errors itself, and as soon as parsing reaches a
// command's action it hands back, and the full program (dist/cli.js, ESM, one chunk per command) runs
// with the same argv. A lone --help not on a terminal prints dist/help.txt, the program's own help that
// the build saved (see precomputedHelp); a lone --version prints the version from package.json.
// dist/cli.cjs is compiled with a V8 code cache that scripts/build.mjs made for the Node that built it
// (Node 20 has no module.enableCompileCache; on 22+ ours still wins, as it holds the functions that ran,
// not only the top level); under any other Node, or if V8 rejects the cache, it compiles as usual.
/* global require, module, __dirname */
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose, see above */
'use strict';
const fs = require('node:fs');
const path = require('node:path');

// `module.constructor` is Node's Module: wrap() and createRequire() without loading node:module (0.3 ms).
const Module = module.constructor;
const dist = path.join(__dirname, '..', 'dist');
const parserFile = path.join(dist, 'cli.cjs');

/** The code cache of dist/cli.cjs for this Node and V8 (V8 also checks its version and flags itself). */
function codeCachePath() {
  const key = `${process.version}-v8-${process.versions.v8}-${process.arch}`;
  return path.join(dist, 'v8-cache', `cli.cjs.${key}.bin`);
}

/**
 * Compiles and runs dist/cli.cjs as `require` would, but through vm.Script so that V8 can take
 * `cachedData`. Returns the module's exports and the script (for createCachedData).
 */
function loadParserWithCache(cachedData) {
  const vm = require('node:vm');
  const source = fs.readFileSync(parserFile, 'utf8');
  const script = new vm.Script(Module.wrap(source), { filename: parserFile, cachedData });
  const mod = { exports: {}, filename: parserFile, id: parserFile };
  const fn = script.runInThisContext();
  fn.call(mod.exports, mod.exports, Module.createRequire(parserFile), mod, parserFile, dist);
  return { exports: mod.exports, script };
}

/** dist/cli.cjs's exports, compiled the fastest way this Node allows. */
function loadParser() {
  if (Number(process.versions.node.split('.')[0]) >= 22) {
    // Node 22.1+ has a compile cache of its own: for the chunks after a hand-off, and for this bundle when
    // there is no code cache of ours (which is better: it holds the functions that --help runs too).
    require('node:module').enableCompileCache?.();
  }
  let cachedData;
  try {
    cachedData = fs.readFileSync(codeCachePath());
  } catch {
    return require(parserFile);
  }
  return loadParserWithCache(cachedData).exports;
}

/** Writes `text` on stdout; a reader that has gone away (EPIPE) is not an error, as in main(). */
function print(text) {
  process.stdout.on('error', (err) => {
    if (err.code !== 'EPIPE') throw err;
  });
  process.stdout.write(text);
}

/**
 * dist/help.txt, or undefined. scripts/build.mjs wrote it from the real program's own `--help` on a pipe
 * (80 columns, no colour) after checking that the environment does not change it, and a test holds it
 * equal to what commander prints. It serves only a lone --help or -h, only when commander too would
 * print 80 columns without colour: stdout is not a terminal and nothing forces colour.
 */
function precomputedHelp(args) {
  if (args.length !== 1 || (args[0] !== '--help' && args[0] !== '-h')) return undefined;
  if (process.env.FORCE_COLOR !== undefined || process.env.CLICOLOR_FORCE !== undefined) return undefined;
  if (process.stdout.isTTY) return undefined;
  try {
    return fs.readFileSync(path.join(dist, 'help.txt'), 'utf8');
  } catch {
    return undefined;
  }
}

async function run(argv) {
  const args = argv.slice(2);
  if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
    // What commander prints for a lone --version (a test holds the two equal), without loading it.
    print(`${require('../package.json').version}\n`);
    return;
  }
  const help = precomputedHelp(args);
  if (help !== undefined) {
    print(help);
    return;
  }
  if (await loadParser().main(argv, { parseOnly: true })) return;
  const { main } = await import('../dist/cli.js');
  await main(argv);
}

if (require.main === module) {
  void run(process.argv);
} else {
  // For scripts/build.mjs, which writes the code cache with this very loader.
  module.exports = { codeCachePath, loadParserWithCache };
}
