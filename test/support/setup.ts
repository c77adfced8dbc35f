// Keep every test away from the developer's real config, state and terminal settings.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

process.env.AGENTS_CONFIG_DIR = mkdtempSync(join(tmpdir(), 'agents-test-'));
delete process.env.AGENTS_API_KEY;
delete process.env.AGENTS_BASE_URL;
delete process.env.AGENTS_PROFILE;
delete process.env.AGENTS_AGENT;
delete process.env.AGENTS_DEBUG;
