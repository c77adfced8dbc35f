// Modules of src/ imported by a script as the sources are now: bundled by esbuild (Node's options, as
// dist/ is built) into a directory of their own, imported, and the directory removed. `npm run docs` reads
// the commander tree this way, and the build the heads of the root help (scripts/build.mjs).
import { build } from 'esbuild';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { nodeBundle } from './esbuild-options.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

/**
 * Calls `use` with the module whose text is `entry` (TypeScript, its imports relative to the repository's
 * root, such as `export { buildProgram } from './src/cli/program/program.ts';`), and returns what it returns.
 */
export async function fromSources(entry, use) {
  const out = mkdtempSync(join(tmpdir(), 'agents-sources-'));
  try {
    await build({
      stdin: { contents: entry, resolveDir: root, sourcefile: 'sources-entry.ts', loader: 'ts' },
      ...nodeBundle,
      outdir: out,
      splitting: true,
    });
    return await use(await import(pathToFileURL(join(out, 'stdin.js')).href));
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}
