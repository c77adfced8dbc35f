// Runs before every test file, in the worker that runs it (workers are reused: nothing here may rely on
// being loaded once). Keeps every test away from the developer's real config, state and terminal settings,
// and closes the emulators and test servers a test started with `emulator()`, `serve()` or `sessionServer()`
// once it ends.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { closeTestEmulators } from './emulator.js';
import { closeTestServers } from './test-server.js';

process.env.AGENTS_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'agents-test-'));
delete process.env.AGENTS_API_KEY;
delete process.env.AGENTS_BASE_URL;
delete process.env.AGENTS_PROFILE;
delete process.env.AGENTS_AGENT;
delete process.env.AGENTS_DEBUG;
// `agents login` never writes to the developer's real keychain: the file, as before the keychain. The tests
// of the keychain (test/support/keyring.ts) turn it on with a Secret Service of their own.
process.env.AGENTS_KEYCHAIN = '0';

afterEach(closeTestEmulators);
afterEach(closeTestServers);
