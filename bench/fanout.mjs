// `npm run bench:fanout`: N waiter processes of the built binary on one key (npm run build, which the npm
// script runs first), shared budget against uncoordinated (bench/fanout/, bundled by bundle.mjs).
import { join } from 'node:path';
import { root, runBundled } from './bundle.mjs';

await runBundled('fanout', { main: 'bench/fanout/main.ts' }, ({ run }) =>
  run({ bin: join(root, 'bin', 'agents.js'), argv: process.argv.slice(2) }),
);
