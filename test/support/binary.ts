// The one-file executable `npm run build:binary` makes for this machine (dist-bin/agents-<os>-<arch>). It
// is not part of `npm test`'s build: where it has not been built, the tests that run it skip and say so;
// .ci/run builds it once and sets AGENTS_TEST_REQUIRE_BINARY=1, under which its absence fails the run.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './run-cli.js';

/** The os and arch of this machine as the executables and install.sh name them (linux-x64, darwin-arm64). */
export const TARGET = `${process.platform === 'win32' ? 'windows' : process.platform}-${process.arch}`;

/** Where `npm run build:binary` puts this machine's executable. */
export const BINARY = join(ROOT, 'dist-bin', `agents-${TARGET}${process.platform === 'win32' ? '.exe' : ''}`);

/** Why the executable's tests cannot run here, or undefined when they can; throws where they must. */
export function binaryMissing(): string | undefined {
  if (existsSync(BINARY)) return undefined;
  const reason = `needs dist-bin/agents-${TARGET}: npm run build:binary`;
  if (process.env.AGENTS_TEST_REQUIRE_BINARY === '1') {
    throw new Error(`${reason} (AGENTS_TEST_REQUIRE_BINARY=1: the executable must have been built)`);
  }
  return reason;
}
