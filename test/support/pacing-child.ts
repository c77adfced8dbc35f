// A process of its own for the cross-process pacing tests (bundled by the test with esbuild): an ApiClient
// that shares its key's budget through a directory, making GET requests one after another. Each request's
// session id names the child and the request (<child>-0000-4000-8000-<n>), so that the server can tell
// them apart (the emulator, which has none of these sessions, answers 404: an answer all the same). Prints
// "done" when all are answered; a repair of the shared file, and a fallback, on stderr.
import { ApiClient } from '../../src/core/api/client.js';

const [
  baseUrl = '',
  apiKey = '',
  dir = '',
  child = '0',
  count = '1',
  limit = '5',
  windowMs = '1000',
  leaseMs = '300',
] = process.argv.slice(2);

const client = new ApiClient({
  baseUrl,
  apiKey,
  pacing: { limit: Number(limit), windowMs: Number(windowMs) },
  sharedPacing: {
    dir,
    leaseMs: Number(leaseMs),
    onFallback: (m) => process.stderr.write(`fallback: ${m}\n`),
    onRepair: (m) => process.stderr.write(`repaired: ${m}\n`),
  },
  retry: { maxRetries: 0 },
});

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');
for (let i = 0; i < Number(count); i += 1) {
  await client.getSession(`${hex(Number(child), 8)}-0000-4000-8000-${hex(i, 12)}`).catch((err: unknown) => {
    if ((err as { status?: number }).status !== 404) throw err;
  });
}
process.stdout.write('done\n');
