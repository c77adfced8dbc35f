#!/usr/bin/env node
// The launcher. It compiles dist/agents.cjs (the whole program, one file) with a V8 code cache kept per
// user, so a run skips parsing and compiling what earlier runs compiled (the functions that ran, not only
// the top level: the cache is made after the first run on this Node). Node 20 has no compile cache of its
// own; on 22+ Node's covers the vendor files required later. Without a usable cache it compiles as usual.
'use strict';
/* global require, __dirname */
/* eslint-disable @typescript-eslint/no-require-imports -- CommonJS on purpose, see above */
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
// V8 checks a code cache's header, not its contents, unless told to: a cache damaged on disk would crash
// every run (a fatal error in the deserializer) instead of being rejected. With checksums on, V8 writes
// one into each cache it makes and rejects a cache whose contents do not match it.
require('node:v8').setFlagsFromString('--verify-snapshot-checksum');

const file = path.join(__dirname, '..', 'dist', 'agents.cjs');
const source = fs.readFileSync(file, 'utf8');
require('node:module').enableCompileCache?.();

/** ~/.cache/agents (or the platform's cache directory), private to the user: a cache holds code. */
function cacheDir() {
  const home = require('node:os').homedir();
  if (process.platform === 'win32') return path.join(process.env.LOCALAPPDATA || home, 'agents', 'Cache');
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Caches', 'agents');
  return path.join(process.env.XDG_CACHE_HOME || path.join(home, '.cache'), 'agents');
}

// The build id (first line of the bundle), this Node and this CPU: V8 checks little more than the length.
const build = /^\/\/ build (\w+)/.exec(source)?.[1] ?? 'dev';
const cacheFile = path.join(cacheDir(), `v8-${build}-${process.version}-${process.arch}.bin`);
let cachedData;
try {
  cachedData = fs.readFileSync(cacheFile);
} catch {
  // No cache yet: compile, and write one after the run.
}
const script = new vm.Script(require('node:module').wrap(source), { filename: file, cachedData });
const program = { exports: {} };
script
  .runInThisContext()
  .call(
    program.exports,
    program.exports,
    require('node:module').createRequire(file),
    program,
    file,
    path.dirname(file),
  );

/** After a run that had no usable cache: save what V8 compiled, atomically, readable by the user alone. */
function saveCache() {
  if (cachedData !== undefined && !script.cachedDataRejected) return;
  try {
    fs.mkdirSync(path.dirname(cacheFile), { recursive: true, mode: 0o700 });
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, script.createCachedData(), { mode: 0o600 });
    fs.renameSync(tmp, cacheFile);
  } catch {
    // A read-only home or a full disk: the next run compiles again.
  }
}

void program.exports.run().then(saveCache);
