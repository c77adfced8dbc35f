// `agents tail --since`: the backlog starts at a time (a duration back from now, or an ISO 8601 time), by
// created_at; with -n as well, both limits apply.
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/core/api/types.js';
import { DIALECTS, fixture as baseFixture } from '../../support/fixture.js';

const texts = (out: string) =>
  out
    .trim()
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => (JSON.parse(l) as Message).message);

describe.each(DIALECTS)('against the %s dialect', (dialect) => {
  /** A session whose turn ended now, with replies stored 3 h, 90 min and 5 min ago in a thread before it. */
  async function aged() {
    const f = await baseFixture({ dialect });
    const r = await f.run(['create', '-a', 'claude', '--wait', '--json', '[[steps:0]] [[reply:now]] q']);
    expect(r.code, r.stderr).toBe(0);
    const id = (JSON.parse(r.stdout) as Message).chat_id;
    const thread = '00000000-0000-4000-8000-00000000000a';
    const ago = (min: number) => new Date(Date.now() - min * 60_000).toISOString();
    for (const [text, min] of [
      ['3h ago', 180],
      ['90m ago', 90],
      ['5m ago', 5],
    ] as const) {
      f.em.addMessage(id, {
        chat_thread_id: thread,
        role: 'user',
        type: 'message',
        message: `asked ${text}`,
        created_at: ago(min + 1),
      });
      f.em.addMessage(id, {
        chat_thread_id: thread,
        role: 'assistant',
        type: 'message',
        message: text,
        created_at: ago(min),
      });
    }
    return { f, id };
  }

  it('--since 2h prints what was stored in the last two hours, however many', async () => {
    const { f, id } = await aged();
    const r = await f.run(['tail', id, '--since', '2h', '--until-final', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(texts(r.stdout)).toEqual(['90m ago', '5m ago', 'now']);
  });

  it('--since takes an ISO 8601 time', async () => {
    const { f, id } = await aged();
    const at = new Date(Date.now() - 30 * 60_000).toISOString();
    const r = await f.run(['tail', id, '--since', at, '--until-final', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(texts(r.stdout)).toEqual(['5m ago', 'now']);
  });

  it('with -n as well, both limits apply', async () => {
    const { f, id } = await aged();
    const few = await f.run(['tail', id, '--since', '4h', '-n', '2', '--until-final', '--json']);
    expect(texts(few.stdout)).toEqual(['5m ago', 'now']);
    const recent = await f.run(['tail', id, '--since', '10m', '-n', '5', '--until-final', '--json']);
    expect(texts(recent.stdout)).toEqual(['5m ago', 'now']);
  });

  it('without --since, -n keeps its default of 10 and counts from the end', async () => {
    const { f, id } = await aged();
    const r = await f.run(['tail', id, '-n', '1', '--until-final', '--json']);
    expect(texts(r.stdout)).toEqual(['now']);
  });
});
