// A library client of a test's emulator, with a budget file of its own (never the machine's).
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agents, type AgentsOptions } from '../../src/sdk/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { KEY } from './key.js';

/** A fresh directory for a budget's state file. */
export function budgetDir(): string {
  return join(mkdtempSync(join(tmpdir(), 'agents-sdk-')), 'pacing');
}

/** An Agents of `em` with the suite's key and its own budget file; `o` overrides. */
export function agentsOf(em: RunningEmulator, o: Partial<AgentsOptions> = {}): Agents {
  return new Agents({ apiKey: KEY, baseUrl: em.url, budget: { dir: budgetDir() }, ...o });
}

/** The polls of a thread's messages the emulator answered (what a wait sends). */
export function threadPolls(em: RunningEmulator): number {
  return em.stats().byRoute['GET /sessions/:id/threads/:tid/messages'] ?? 0;
}
