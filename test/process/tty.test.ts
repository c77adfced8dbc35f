// A person at a terminal: the built binary in a real pseudo-terminal (util-linux `script`).
import { describe, expect, it } from 'vitest';
import { fixture } from '../support/fixture.js';
import { runInPty } from '../support/pty.js';
import { missing, titled } from '../support/tools.js';

const noTools = missing('script');

// eslint-disable-next-line no-control-regex
const COLOUR = /\u001b\[(?:\d+;)*3\dm/;

describe.skipIf(noTools)(titled('in a terminal', noTools), () => {
  it('create --wait shows a summary, the reply and what to type next', async () => {
    // The turn is held while the wait shows itself, then ended.
    const f = await fixture({ turnMsPerRequest: 0 });
    const t = runInPty(['create', '-a', 'claude', '--wait', 'hello'], {
      ...f.env,
      FORCE_COLOR: '1',
    });
    await t.waitFor('Waiting for claude');
    f.em.endTurns();
    expect(await t.exit).toBe(0);
    expect(t.screen).toContain('Created');
    expect(t.screen).toContain('claude finished');
    // What to type next once the reply is in (src/cli/output/render.ts renderNextSteps): reply, or read it all.
    const id = /id {3}([0-9a-f-]{36})/.exec(t.screen)?.[1];
    expect(id).toBeDefined();
    expect(t.screen).toContain(`agents send ${id} "…"`);
    expect(t.screen).toContain(`agents show ${id}`);
    expect(t.screen).toMatch(COLOUR);
  });

  it('NO_COLOR turns colour off', async () => {
    const f = await fixture();
    const t = runInPty(['create', '-a', 'claude', '--wait', 'hello'], { ...f.env, NO_COLOR: '1' });
    expect(await t.exit).toBe(0);
    expect(t.screen).toContain('claude finished');
    expect(t.screen).not.toMatch(COLOUR);
  });

  it('asks for the agent and the message when none is given', async () => {
    const f = await fixture();
    const t = runInPty(['create', '--wait'], { ...f.env, NO_COLOR: '1' });
    await t.waitFor('Agent:');
    t.type('\u001b[B'); // arrow down: codex
    t.type('\r');
    await t.waitFor('Message:');
    t.type('typed at the prompt\r');
    expect(await t.exit).toBe(0);
    expect(t.screen).toContain('codex finished: "typed at the prompt"');
  });

  it('Ctrl-C at a prompt ends with 130 and sends nothing', async () => {
    const f = await fixture();
    const t = runInPty(['create', '-a', 'claude'], { ...f.env, NO_COLOR: '1' });
    await t.waitFor('Message:');
    t.type('\u0003');
    expect(await t.exit).toBe(130);
    expect(f.em.stats().requests).toBe(0);
  });

  it('neutralises escape sequences in replies shown on the terminal', async () => {
    const f = await fixture();
    // ESC[2J (clear screen) and an OSC 52 clipboard write, URL-encoded in the scripted reply.
    const t = runInPty(['create', '-a', 'claude', '--wait', '[[reply:%1b%5B2Jok%1b%5D52;c;ZXZpbA==%07]] x'], {
      ...f.env,
      NO_COLOR: '1',
    });
    expect(await t.exit).toBe(0);
    expect(t.screen).toContain('^[[2Jok^[]52;c;ZXZpbA==^G');
    expect(t.screen).not.toContain('\u001b[2J');
    expect(t.screen).not.toContain('\u001b]52');
  });

  it('send asks before interrupting a running turn; --yes skips the question', async () => {
    const f = await fixture();
    const c = await f.run(['create', '-a', 'claude', '[[never]] long job']);
    const id = c.stdout.trim();
    const t = runInPty(['send', id, 'stop'], { ...f.env, NO_COLOR: '1' });
    await t.waitFor('Interrupt it?');
    t.type('n\r');
    expect(await t.exit).toBe(2);
    expect(f.em.stats().followUps).toBe(0);
    const y = runInPty(['send', id, '--yes', 'stop'], { ...f.env, NO_COLOR: '1' });
    expect(await y.exit).toBe(0);
    expect(f.em.stats().followUps).toBe(1);
  });
});

describe.skipIf(noTools)(titled('in a terminal that reports no size', noTools), () => {
  it('create --wait ends instead of clearing lines forever', async () => {
    // A few polls go by with the turn in progress (each answered request moves it on 500 ms).
    const f = await fixture({ turnMsPerRequest: 500 });
    const t = runInPty(
      ['create', '-a', 'claude', '--wait', '[[think:1500]] hello'],
      { ...f.env, NO_COLOR: '1' },
      0,
    );
    expect(await t.exit).toBe(0);
    expect(t.screen).toContain('claude finished');
    expect(t.screen.length).toBeLessThan(10_000);
  });
});
