// `agents create --title --session-group`: the live service's two create fields the document does not name,
// sent only when given (issue 32), and checked before anything is sent.
import { describe, expect, it } from 'vitest';
import type { Session } from '../../../src/core/api/types.js';
import { fixture } from '../../support/fixture.js';

const GROUP = '0b5e6f0e-3c7a-4d7e-9d8e-2f1a3b4c5d6e';

describe('agents create --title --session-group', () => {
  it('sends both when given: the session carries the title and the group', async () => {
    const { run, em } = await fixture({ dialect: 'live' });
    const r = await run([
      'create',
      '-a',
      'claude',
      '--json',
      '--title',
      'Nightly review',
      '--session-group',
      GROUP.toUpperCase(),
      'Review the nightly build',
    ]);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as Session;
    expect(s.title).toBe('Nightly review');
    expect(s.session_group_id).toBe(GROUP);
    expect(em.stats().sessionsCreated).toBe(1);
  });

  it('sends neither when not given: the service names the session from the message', async () => {
    const { run } = await fixture({ dialect: 'live' });
    const r = await run(['create', '-a', 'claude', '--json', 'Review the nightly build']);
    expect(r.code).toBe(0);
    const s = JSON.parse(r.stdout) as Session;
    expect(s.title).toBe('Review the nightly build');
    expect(s.session_group_id).toBeNull();
  });

  it.each([
    [['--title', 'x'.repeat(201)], /--title.*1 to 200 characters/],
    [['--title', ' '], /--title.*1 to 200 characters/],
    [['--session-group', 'not-a-uuid'], /--session-group.*UUID/],
  ])('%j is a usage error and nothing is sent', async (flags, message) => {
    const { run, em } = await fixture();
    const r = await run(['create', '-a', 'claude', ...flags, 'hello']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr.split('\n').filter((l) => l !== '')).toHaveLength(1);
    expect(em.stats().requests).toBe(0);
  });
});
