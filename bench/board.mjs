// `npm run bench:board` (issue 48): the board's first paint, and its requests a minute with 10 and 50
// sessions working, alone and beside `agents wait` on the same sessions and key (bench/board/, bundled by
// bundle.mjs). Options: --sizes 10,50 --seconds 60 --paints 5.
import { join } from 'node:path';
import { root, runBundled } from './bundle.mjs';

await runBundled('board', { main: 'bench/board/main.ts' }, ({ run }) =>
  run({ bin: join(root, 'bin', 'agents.js'), argv: process.argv.slice(2) }),
);
