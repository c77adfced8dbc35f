// agents create --attempts N through main(argv, io) against the emulator: N sessions in one new session
// group with the same message, their ids one per line in a pipe (the group on stderr), --json an array,
// one failed create among them (a fault on the 2nd POST, seeded), --wait on them all, `wait` on the group
// by its id and by `last`, and bad input refused before anything is sent.
import { describe, expect, it } from 'vitest';
import type { Session } from '../../../src/core/api/types.js';
import { fixture, UUID } from '../../support/fixture.js';

const groupIn = (stderr: string) => /session group ([0-9a-f-]{36})/.exec(stderr)?.[1] ?? '';

describe('agents create --attempts', () => {
  it('makes N sessions in one new group with the same message: ids on stdout, the group on stderr', async () => {
    const f = await fixture({ dialect: 'live' });
    const r = await f.run(['create', '-a', 'claude', '--attempts', '3', 'Fix the flaky test']);
    expect(r.code, r.stderr).toBe(0);
    const ids = r.stdout.trim().split('\n');
    expect(ids).toHaveLength(3);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(3);
    const group = groupIn(r.stderr);
    expect(group).toMatch(UUID);
    expect(f.em.stats().sessionsCreated).toBe(3);
    for (const id of ids) {
      const shown = await f.run(['show', id, '--json']);
      expect((JSON.parse(shown.stdout) as { session: Session }).session.session_group_id).toBe(group);
      const first = f.em.messages(id).find((m) => m.role === 'user');
      expect(first?.message).toBe('Fix the flaky test');
    }
  });

  it('--json prints one array of the sessions', async () => {
    const f = await fixture({ dialect: 'live' });
    const r = await f.run(['create', '-a', 'claude', '--attempts', '2', '--json', 'go']);
    expect(r.code).toBe(0);
    const sessions = JSON.parse(r.stdout) as Session[];
    expect(sessions).toHaveLength(2);
    expect(sessions[0]!.session_group_id).toBe(sessions[1]!.session_group_id);
  });

  it('one failed create leaves the others, each reported, none sent twice; exit the failure', async () => {
    // Seeded: the 2nd POST alone gets a 500.
    const f = await fixture({
      dialect: 'live',
      faults: { rate: 0.5, modes: ['500'], methods: ['POST'], seed: 275 },
    });
    const r = await f.run(['create', '-a', 'claude', '--attempts', '3', 'go']);
    expect(r.code).toBe(1);
    expect(r.stdout.trim().split('\n')).toHaveLength(2);
    expect(r.stderr).toMatch(/^error: attempt 2 of 3: /m);
    expect(r.stderr).toContain('2 of 3 attempts created');
    expect(f.em.stats().sessionsCreated).toBe(2);
    expect(f.em.stats().byRoute['POST /sessions']).toBe(3);
  });

  it('--wait prints each reply as it lands and exits 0 when all replied', async () => {
    const f = await fixture();
    const r = await f.run(['create', '-a', 'claude', '--attempts', '3', '--wait', '[[reply:done]] go']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('done\ndone\ndone\n');
    expect(r.stderr.match(/^reply of /gm)).toHaveLength(3);
  });

  it('wait takes the group by its id and by last; a pipe of the ids works too', async () => {
    const f = await fixture();
    const made = await f.run(['create', '-a', 'claude', '--attempts', '2', '[[reply:ok]] go']);
    const group = groupIn(made.stderr);
    const byId = await f.run(['wait', group, '--json']);
    expect(byId.code, byId.stderr).toBe(0);
    const sessions = byId.stdout
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { session: string }).session)
      .sort();
    expect(sessions).toEqual(made.stdout.trim().split('\n').sort());
    const byLast = await f.run(['wait', 'last']);
    expect(byLast.stdout).toBe('ok\nok\n');
    const piped = await f.run(['wait'], { input: made.stdout });
    expect(piped.stdout).toBe('ok\nok\n');
    // A create or send after it: `last` names that session again.
    await f.run(['send', made.stdout.split('\n')[0]!, '[[reply:again]] more']);
    expect((await f.run(['wait', 'last'])).stdout).toBe('again\n');
  });

  it('ls and show take the group: its attempts, attempt 1 first', async () => {
    const f = await fixture();
    await f.run(['create', '-a', 'claude', 'an older one']);
    const made = await f.run(['create', '-a', 'claude', '--attempts', '2', 'go']);
    const ids = made.stdout.trim().split('\n');
    const listed = await f.run(['ls', 'last', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const rows = JSON.parse(listed.stdout) as { id: string }[];
    expect(rows.map((s) => s.id)).toEqual(ids);
    const shown = await f.run(['show', groupIn(made.stderr), '--json']);
    expect((JSON.parse(shown.stdout) as { id: string }[]).map((s) => s.id)).toEqual(ids);
    const notGroup = await f.run(['ls', ids[0]!]);
    expect(notGroup.code).toBe(2);
  });

  it.each([
    [['--attempts', '0'], /--attempts.*2 to 5/],
    [['--attempts', '6'], /--attempts.*2 to 5/],
    [['--attempts', 'abc'], /--attempts.*2 to 5/],
    [['--attempts', '2', '--session-group', '0b5e6f0e-3c7a-4d7e-9d8e-2f1a3b4c5d6e'], /--session-group/],
    [['--attempts', '2', '--follow'], /--follow/],
  ])('%j: exit 2, nothing sent', async (args, message) => {
    const f = await fixture();
    const r = await f.run(['create', '-a', 'claude', ...args, 'go']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(f.em.stats().requests).toBe(0);
  });
});
