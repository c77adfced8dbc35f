// A message read from a pipe that stays quiet, as a person at the terminal sees it (issue 46): after about a
// second, one line saying standard input is being read and how to end it; what they then type is the message.
import { describe, expect, it } from 'vitest';
import { fixture, UUID } from '../support/fixture.js';
import { runInPty } from '../support/pty.js';
import { missing, titled } from '../support/tools.js';

const noTools = missing('script');

describe.skipIf(noTools)(titled('a message from a quiet pipe, on a terminal', noTools), () => {
  it('`cat | agents create -a claude`: told it is reading standard input, then sends what was typed', async () => {
    const f = await fixture();
    // `cat` passes on what the test types, so standard input is a pipe that stays open until Ctrl-D.
    const pty = runInPty(['create', '-a', 'claude'], f.env, 100, 40, 'cat');
    await pty.waitFor(
      'Reading the message from standard input (end it with Ctrl-D, or give it as arguments)…',
    );
    pty.type('typed at the terminal\r');
    pty.type('\x04');
    expect(await pty.exit).toBe(0);
    const id = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/.exec(pty.screen)?.[0] ?? '';
    expect(id).toMatch(UUID);
    expect(f.em.messages(id)[0]?.message).toBe('typed at the terminal\n');
  });
});
