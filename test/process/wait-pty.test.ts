// `agents wait` in a real pseudo-terminal 40 columns wide: the status lines are drawn in place on stderr
// while replies land on stdout, and what the person sees at the end is the replies under their headers,
// intact, in order, with the status lines gone and none of them ever wrapped.
import { describe, expect, it } from 'vitest';
import { fixture } from '../support/fixture.js';
import { runInPty } from '../support/pty.js';
import { render } from '../support/vt100.js';
import { missing, titled } from '../support/tools.js';

const noTools = missing('script');

describe.skipIf(noTools)(titled('agents wait on a terminal', noTools), () => {
  it('40 columns: replies under headers, status lines redrawn in place and never garbled with them', async () => {
    // Held turns, ended by the test: the quick one once the status lines are up, the slow one after.
    const f = await fixture({ turnMsPerRequest: 0 });
    const made = async (message: string) => (await f.run(['create', '-a', 'claude', message])).stdout.trim();
    const slow = await made(
      '[[turn:30000]] [[reply:the%20slow%20one%20is%20done]] A long title for the slow task',
    );
    const quick = await made('[[turn:4000]] [[reply:quick%20reply%0Awith%20two%20lines]] quick');
    const pty = runInPty(['wait', slow, quick], f.env, 40);
    // The status lines are up while the slow one waits.
    await pty.waitFor(/· claude · waiting/);
    f.em.endTurns(quick);
    await pty.waitFor('with two lines');
    f.em.endTurns(slow);
    expect(await pty.exit).toBe(0);
    const { rows } = render(pty.screen, 40);
    const shown = rows.filter((l) => l !== '');
    // At 40 columns a header holds the session id alone (no room for a title).
    expect(shown).toEqual([
      `── ${quick}`,
      'quick reply',
      'with two lines',
      `── ${slow}`,
      'the slow one is done',
    ]);
    // Every status line drawn fitted the width (a wrapped one would have left a stray row above).
    const statusRows = pty.screen
      .split(/\r?\n|\r/)
      // eslint-disable-next-line no-control-regex -- escape sequences are what is stripped
      .map((l) => l.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''))
      .filter((l) => /· claude · (starting|waiting)/.test(l));
    expect(statusRows.length).toBeGreaterThan(0);
    for (const l of statusRows) expect([...l].length).toBeLessThanOrEqual(39);
  });
});
