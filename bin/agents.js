#!/usr/bin/env node
// The launcher. It compiles the parts of dist/ a run needs (dist/agents.cjs, the program; dist/http.cjs on
// the first request; dist/vendor/*.cjs on first use) each with a V8 code cache kept per user, so a run skips
// parsing and compiling what earlier runs compiled (the functions that ran, not only the top level: a
// part's cache is made after the first run that used it on this Node). Node 20 has no compile cache of its
// own; without a usable cache a part compiles as usual.
'use strict';
/* global require, __dirname */
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose, see above */
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');
// V8 flags, set before anything is compiled: V8 accepts a code cache only under the flags it was made
// with, and a cache is made at the end of a run, so a flag set during the run would get every saved cache
// rejected by the next one.
//  --verify-snapshot-checksum: V8 checks a code cache's header, not its contents, unless told to: a cache
//    damaged on disk would crash every run (a fatal error in the deserializer) instead of being rejected.
//  --liftoff-only: undici parses HTTP with llhttp compiled to WebAssembly. Left to tier up, V8 compiles
//    it again with TurboFan in the background, which costs about 35 MB of peak memory, and the process
//    waits for that compile before it can exit (some 60 ms on Node 20). Liftoff's code parses a CLI's few
//    responses just as well.
require('node:v8').setFlagsFromString('--verify-snapshot-checksum --liftoff-only');
// Covers what is still required from node_modules (proper-lockfile) on Node 22+.
Module.enableCompileCache?.();

const dist = path.join(__dirname, '..', 'dist');
const nodeRequire = Module.createRequire(path.join(dist, 'agents.cjs'));

/** ~/.cache/agents (or the platform's cache directory), private to the user: a cache holds code. */
function cacheDir() {
  if (process.platform === 'win32') {
    return path.join(process.env.LOCALAPPDATA || require('node:os').homedir(), 'agents', 'Cache');
  }
  // os.homedir() reads $HOME first too; node:os is loaded only when it is unset.
  const home = () => process.env.HOME || require('node:os').homedir();
  if (process.platform === 'darwin') return path.join(home(), 'Library', 'Caches', 'agents');
  return path.join(process.env.XDG_CACHE_HOME || path.join(home(), '.cache'), 'agents');
}
const cache = cacheDir();

/** The parts loaded so far, by file name under dist/. */
const parts = new Map();
/** Parts compiled without a usable cache: theirs is written after the run. */
const uncached = [];

/** Loads a part of dist/ (once) and returns its exports. */
function load(name) {
  const loaded = parts.get(name);
  if (loaded !== undefined) return loaded.exports;
  const file = path.join(dist, name);
  // esbuild writes ASCII, so latin1 reads it as it is, without decoding UTF-8.
  const source = fs.readFileSync(file, 'latin1');
  // Keyed by the part's build id (its first line), this Node and this CPU: V8 checks little more than the
  // length of the source, so a cache made for other code must never be offered.
  const build = /^\/\/ build (\w+)/.exec(source)?.[1] ?? 'dev';
  const part = name.replace(/\.cjs$/, '').replace(/[\\/]/g, '-');
  const cacheFile = path.join(cache, `v8-${part}-${build}-${process.version}-${process.arch}.bin`);
  let cachedData;
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    // No cache yet: compile, and write one after the run.
  }
  const script = new vm.Script(Module.wrap(source), { filename: file, cachedData });
  if (cachedData === undefined || script.cachedDataRejected) uncached.push({ script, cacheFile });
  const module = { exports: {} };
  parts.set(name, module);
  const dir = path.dirname(file);
  // A part requires the other parts by relative name, everything else (Node's modules) from node_modules.
  const requirePart = (id) =>
    id.startsWith('./') || id.startsWith('../')
      ? load(path.relative(dist, path.resolve(dir, id)))
      : nodeRequire(id);
  script.runInThisContext().call(module.exports, module.exports, requirePart, module, file, dir);
  return module.exports;
}

/** After the run: saves what V8 compiled of each part that had no usable cache, atomically, user-only. */
function saveCaches() {
  for (const { script, cacheFile } of uncached) {
    try {
      fs.mkdirSync(cache, { recursive: true, mode: 0o700 });
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
      fs.renameSync(tmp, cacheFile);
    } catch {
      // A read-only home or a full disk: the next run compiles again.
    }
  }
}

void load('agents.cjs').run().then(saveCaches);
