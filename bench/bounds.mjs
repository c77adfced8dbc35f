// `npm run bench:bounds`: the built binary against the emulator's broken answers (bench/bounds/, bundled).
import { runBundled, root } from './bundle.mjs';

await runBundled('bounds', { main: 'bench/bounds/main.ts' }, ({ run }) => run({ root }));
