// The one-file executable (npm run build:binary): every command runs from it on a PATH with no node, the
// emulator and the MCP server included, as they do from the npm install.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'vitest';
import { BINARY, binaryMissing } from '../support/binary.js';
import { runEveryCommand } from '../support/every-command.js';
import { ROOT } from '../support/run-cli.js';
import { titled } from '../support/tools.js';

const missing = binaryMissing();

describe.skipIf(missing !== undefined)(titled('the one-file executable', missing), () => {
  it('runs every command with no node on the PATH', async () => {
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    // An empty directory is the whole PATH: nothing the executable could start a node from.
    const empty = mkdtempSync(join(tmpdir(), 'agents-no-node-'));
    await runEveryCommand([BINARY], version, { PATH: empty });
  });
});
