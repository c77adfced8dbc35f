import { defineConfig } from 'vitest/config';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export default defineConfig({
  define: { __AGENTS_VERSION__: JSON.stringify(pkg.version) },
  test: {
    // The tiers, as folders: `npx vitest run --project unit` runs one. unit: in-process, no socket and no
    // child; main: in-process through main(argv, io) or the API, over loopback to the emulator, a test
    // server or Redis; process: the built binary, terminals, shells, signals and the packed tarball.
    projects: ['unit', 'main', 'process'].map((name) => ({
      extends: true,
      test: { name, include: [`test/${name}/**/*.test.ts`] },
    })),
    // The suite mostly waits on sockets, timers and child processes, so more files run at once than there
    // are cores: 3 workers on 2 cores finished in about 50 s, not 130. With the library's and the install's
    // slow tools (one file holds a worker for 15 to 30 s), 4: on 2 cores, 80 s where 3 took 98 s.
    maxWorkers: Math.max(4, availableParallelism()),
    // Guards against a hang, never a speed limit: the suite must pass on a loaded machine at any speed (a
    // process test starting twenty binaries on two busy cores has taken over 30 s).
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // A worker runs file after file without loading the modules again: a third of the suite's CPU was each
    // file importing vitest and src/ anew (112 s against 79 s on 2 cores). So nothing may keep per-file state
    // in a module: the hooks of test/support live in the setup file, which runs before every file, and test
    // files restore what they change of the process (its environment, spies on its streams).
    isolate: false,
    // The transformed test and source files kept on disk (node_modules/.experimental-vitest-cache, keyed by
    // each file's content and the config): a run after the first, and CI's runs under Node 24 and 26 after
    // its run under 22, skip vitest's transform of every file (the unit tier: 10.4 s to 8.3 s on 2 cores).
    experimental: { fsModuleCache: true },
    // The default summary says how many tests were skipped; the second reporter says which and why (the
    // reasons are in their titles, which only a verbose reporter shows).
    reporters: ['default', './test/support/skip-reporter.ts'],
    // Every test gets its own config dir through AGENTS_CONFIG_DIR; never the user's real one.
    setupFiles: ['test/support/setup.ts'],
    // Builds dist/ once for the end-to-end tests of the binary.
    globalSetup: ['test/support/global-setup.ts'],
  },
});
