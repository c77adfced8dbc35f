import { defineConfig } from 'vitest/config';
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8')) as {
  version: string;
};

export default defineConfig({
  define: { __AGENTS_VERSION__: JSON.stringify(pkg.version) },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // Every test gets its own config dir through AGENTS_CONFIG_DIR; never the user's real one.
    setupFiles: ['test/setup.ts'],
    // Builds dist/ once for the end-to-end tests of the binary.
    globalSetup: ['test/global-setup.ts'],
  },
});
