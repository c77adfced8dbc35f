#!/usr/bin/env node
// The launcher. Node's compile cache keeps V8's code for dist/ between runs. Source maps cost every file
// loaded a look for its map, so they are turned on only when a stack trace may be printed (--debug,
// AGENTS_DEBUG as src/config/env.ts reads it), and before the program loads: Node maps only the files
// loaded after. The program is imported only then (an import statement would load it first).
import module from 'node:module';

module.enableCompileCache?.();
const debug = process.env.AGENTS_DEBUG;
if (process.argv.includes('--debug') || (debug && debug !== '0' && debug.toLowerCase() !== 'false')) {
  process.setSourceMapsEnabled(true);
}
// `agents`, `agents --help`, `agents -h`, `agents --version`, `agents -V`: the root alone answers them, from a
// file of its own (src/help.ts).
const ROOT_LINES = ['--help', '-h', '--version', '-V'];
const args = process.argv.slice(2);
const rootHelp = args.length === 0 || (args.length === 1 && ROOT_LINES.includes(args[0]));
const { run } = await import(rootHelp ? '../dist/help.js' : '../dist/agents.js');
await run();
