#!/usr/bin/env node
// The launcher. Node's compile cache keeps V8's code for dist/ between runs. Source maps cost every file
// loaded a look for its map, so they are turned on only when a stack trace may be printed (--debug,
// AGENTS_DEBUG as src/core/config/env.ts reads it), and before the program loads: Node maps only the files
// loaded after. The program is imported only then (an import statement would load it first).
import module from 'node:module';

// A Node older than package.json's engines (>=22.12) must not half run (npm only warns, EBADENGINE): one
// line saying which Node is needed, before anything else loads. test/process/startup.test.ts holds these
// numbers to package.json's. The one-file executable carries its own Node, so sea-main.cjs has no check.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
  process.stderr.write(
    `error: agents needs Node.js 22.12 or later, and this is Node.js ${process.versions.node}: ` +
      'update Node (https://nodejs.org), or install the one-file executable of a release, which needs none\n',
  );
  process.exit(1);
}
module.enableCompileCache?.();
const debug = process.env.AGENTS_DEBUG;
if (process.argv.includes('--debug') || (debug && debug !== '0' && debug.toLowerCase() !== 'false')) {
  process.setSourceMapsEnabled(true);
}
// `agents`, `agents --help`, `agents -h`, `agents --version`, `agents -V`: the root alone answers them, from a
// file of its own (src/cli/help.ts).
const ROOT_LINES = ['--help', '-h', '--version', '-V'];
const args = process.argv.slice(2);
const rootHelp = args.length === 0 || (args.length === 1 && ROOT_LINES.includes(args[0]));
const { run } = await import(rootHelp ? '../dist/help.js' : '../dist/agents.js');
await run();
