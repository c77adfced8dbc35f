#!/usr/bin/env node
// Thin launcher: turn on Node's compile cache where this Node has it (22.1+), then load the bundle.
import module from 'node:module';

module.enableCompileCache?.();
const { main } = await import('../dist/cli.js');
await main(process.argv);
