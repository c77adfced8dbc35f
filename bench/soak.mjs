// `npm run soak`: the built CLI against the emulator with faults and restarts, many turns on one machine's
// budget (bench/soak/, bundled by bundle.mjs). Exits 1 when a turn went wrong, a POST was repeated, a
// message was lost or doubled, a run hung, or the service answered 429.
import { join } from 'node:path';
import { root, runBundled } from './bundle.mjs';

await runBundled('soak', { main: 'bench/soak/main.ts' }, ({ run }) =>
  run({ bin: join(root, 'bin', 'agents.js'), argv: process.argv.slice(2) }),
);
