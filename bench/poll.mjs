// `npm run bench:poll`: the poller against a naive loop, on the emulator (bench/poll/, bundled by bundle.mjs).
import { join } from 'node:path';
import { runBundled } from './bundle.mjs';

await runBundled('poll', { main: 'bench/poll/main.ts', child: 'bench/poll/burst-child.ts' }, ({ run }, out) =>
  run({ childScript: join(out, 'child.mjs'), argv: process.argv.slice(2) }),
);
