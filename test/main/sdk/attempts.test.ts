// The library's best-of-N (Agents.createAttempts) through its public entry, against the emulator: N
// sessions in one new group with the same message, one failed create among them, and bad input sending nothing.
import { describe, expect, it } from 'vitest';
import { UsageError, type Session } from '../../../src/sdk/index.js';
import { emulator } from '../../support/emulator.js';
import { fastAgentsOf } from '../../support/sdk.js';

describe('Agents.createAttempts', () => {
  it('makes N sessions in one new group, the same message each; a failed create leaves the others', async () => {
    // Seeded: the 2nd POST alone gets a 500.
    const em = await emulator({
      dialect: 'live',
      faults: { rate: 0.5, modes: ['500'], methods: ['POST'], seed: 275 },
    });
    const agents = fastAgentsOf(em);
    const made = await agents.createAttempts({ agent: 'claude', message: '[[reply:mine]] go', attempts: 3 });
    expect(made.groupId).toMatch(/^[0-9a-f-]{36}$/);
    expect(made.attempts.map((a) => a.attempt)).toEqual([1, 2, 3]);
    expect(made.attempts[1]!.error?.exitCode).toBe(1);
    const turns = made.attempts.flatMap((a) => (a.turn ? [a.turn] : []));
    expect(turns).toHaveLength(2);
    for (const t of turns) {
      expect((t.session as Session).session_group_id).toBe(made.groupId);
      expect(em.messages(t.sessionId).find((m) => m.role === 'user')?.message).toBe('[[reply:mine]] go');
    }
    expect(em.stats().byRoute['POST /sessions']).toBe(3);
    const replies = await Promise.all(turns.map((t) => agents.wait(t)));
    expect(replies.map((r) => r.text)).toEqual(['mine', 'mine']);
  });

  it.each([0, 6, 2.5, Number.NaN])('attempts %s: a usage error, nothing sent', async (attempts) => {
    const em = await emulator();
    const agents = fastAgentsOf(em);
    await expect(agents.createAttempts({ agent: 'claude', message: 'go', attempts })).rejects.toThrow(
      UsageError,
    );
    expect(em.stats().requests).toBe(0);
  });
});
