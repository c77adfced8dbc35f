// What this machine remembers of its sessions (the state file), end to end against the emulator: a turn's
// end seen by any command, the library, mcp or acp is what `agents ls` shows without --refresh; and the
// history is per service: `last`, `ls` and completion never offer a session of another base URL.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Agents } from '../../../src/sdk/index.js';
import { emulator } from '../../support/emulator.js';
import { fixture, KEY, until, type Fixture } from '../../support/fixture.js';
import { runMain } from '../../support/main.js';
import { cliEnv, type CliResult } from '../../support/run-cli.js';
import { mcpInProcess, type McpRun } from '../../support/mcp-client.js';
import { FAST_TUNING } from '../../support/main.js';
import { acpInProcess, chunkText, initialize, updatesOf, type AcpRun } from '../../support/acp-client.js';

const open: (McpRun | AcpRun)[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((r) => r.close()));
});

async function create(f: Fixture, message = 'a turn'): Promise<string> {
  const r = await f.run(['create', '-a', 'claude', message]);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout.trim();
}

/** `agents ls` (no --refresh) as rows of id, title, agent, state, created. */
async function ls(f: { run: (args: string[]) => Promise<CliResult> }): Promise<string[][]> {
  const r = await f.run(['ls']);
  expect(r.code, r.stderr).toBe(0);
  return r.stdout
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split('\t'));
}

const stateOf = async (f: Fixture, id: string) => (await ls(f)).find((row) => row[0] === id)?.[3];

describe("a turn's end, wherever it is seen, is what agents ls shows", () => {
  it('wait on two sessions: both finished', async () => {
    const f = await fixture();
    const [a, b] = [await create(f), await create(f)];
    f.em.endTurns();
    const r = await f.run(['wait', a, b]);
    expect(r.code, r.stderr).toBe(0);
    expect([await stateOf(f, a), await stateOf(f, b)]).toEqual(['finished', 'finished']);
  });

  it.each([
    ['tail last --until-final', ['tail', 'last', '--until-final']],
    ['show', ['show', 'last']],
  ])('%s', async (_, args) => {
    const f = await fixture();
    const id = await create(f);
    f.em.endTurns(id);
    expect(await stateOf(f, id)).toBe('working');
    const r = await f.run(args);
    expect(r.code, r.stderr).toBe(0);
    expect(await stateOf(f, id)).toBe('finished');
  });

  it('create --wait and send --wait (the same record, no second write of their own)', async () => {
    const f = await fixture();
    const r = await f.run(['create', '-a', 'claude', '--wait', 'one']);
    expect(r.code, r.stderr).toBe(0);
    const id = (await ls(f))[0]![0]!;
    expect(await stateOf(f, id)).toBe('finished');
    expect((await f.run(['send', id, 'two'])).code).toBe(0);
    expect(await stateOf(f, id)).toBe('working');
    expect((await f.run(['wait', id])).code).toBe(0);
    expect(await stateOf(f, id)).toBe('finished');
  });

  it("show: the latest turn's end, not an older turn's", async () => {
    // Turns move on only when the test ends them.
    const f = await fixture({ turnMsPerRequest: 0 });
    const id = await create(f, '[[reply:first]] one');
    f.em.endTurns(id);
    expect((await f.run(['send', id, 'two'])).code).toBe(0);
    // show lists the first turn's final reply: not the end of the latest turn, which still runs.
    expect((await f.run(['show', id])).code).toBe(0);
    expect(await stateOf(f, id)).toBe('working');
    f.em.endTurns(id);
    expect((await f.run(['show', id])).code).toBe(0);
    expect(await stateOf(f, id)).toBe('finished');
  });

  it("chat (its poller's client)", async () => {
    const f = await fixture();
    const tty = { stdin: true, stdout: true, stderr: true, columns: 60 };
    const r = await f.run(['chat', '-a', 'claude'], {
      tty,
      idleStdin: true,
      onStart: (run) =>
        void (async () => {
          await until(() => run.stderr.includes('new session'));
          run.stdin.write('first\r');
          await until(() => run.stderr.includes('done in'));
          run.stdin.write('\u0004');
        })(),
    });
    expect(r.code, r.stderr.slice(-500)).toBe(0);
    const id = (await ls(f))[0]![0]!;
    expect(await stateOf(f, id)).toBe('finished');
  });

  it('the library made by Agents.fromConfig', async () => {
    const f = await fixture();
    const id = await create(f);
    f.em.endTurns(id);
    const agents = await Agents.fromConfig({ env: f.env });
    const reply = await agents.wait(id, { timeout: '20s' });
    expect(reply.sessionId).toBe(id);
    expect(await stateOf(f, id)).toBe('finished');
  });

  it('agents mcp: show_session sees the end', async () => {
    const f = await fixture();
    const id = await create(f);
    f.em.endTurns(id);
    const mcp = await mcpInProcess(f.env, FAST_TUNING);
    open.push(mcp);
    const shown = await mcp.call('show_session', { session: id });
    expect(shown.isError).toBeFalsy();
    expect(await stateOf(f, id)).toBe('finished');
  });

  it('agents acp: a prompt that ends, the session with its title and time', async () => {
    const f = await fixture({ dialect: 'live' });
    const acp = acpInProcess(f.env);
    open.push(acp);
    await initialize(acp);
    const made = await acp.connection.agent.request('session/new', { cwd: '/w', mcpServers: [] });
    const r = await acp.prompt(made.sessionId, 'Fix the flaky test [[reply:done]]');
    expect(r.stopReason).toBe('end_turn');
    const id = /sessions\/([0-9a-f-]{36})/.exec(chunkText(updatesOf(acp.events, made.sessionId)[0]!))?.[1];
    const row = (await ls(f)).find((x) => x[0] === id);
    const { session } = JSON.parse((await f.run(['show', id!, '--json'])).stdout) as {
      session: { title: string; created_at: string };
    };
    expect(session.title).not.toBe('');
    expect(row).toEqual([id, session.title, 'claude', 'finished', session.created_at]);
  });
});

describe('the history is per service', () => {
  it('last, ls and completion keep two base URLs of one profile apart', async () => {
    const [service, rehearsal, third] = [await emulator(), await emulator(), await emulator()];
    const dir = cliEnv().AGENTS_CONFIG_DIR!;
    const on = (url: string) => {
      const env = cliEnv({ AGENTS_CONFIG_DIR: dir, AGENTS_BASE_URL: url, AGENTS_API_KEY: KEY });
      return { env, run: (args: string[]) => runMain(args, { env }) };
    };
    const [a, b] = [on(service.url), on(rehearsal.url)];
    const real = (await a.run(['create', '-a', 'claude', 'the real one'])).stdout.trim();
    const rehearsed = (await b.run(['create', '-a', 'claude', 'a rehearsal'])).stdout.trim();
    // Back on the service: `last` is its own session, not the rehearsal's (which it would call not found).
    const shown = await a.run(['show', 'last', '--json']);
    expect(shown.code, shown.stderr).toBe(0);
    expect((JSON.parse(shown.stdout) as { session: { id: string } }).session.id).toBe(real);
    expect((await ls(a)).map((r) => r[0])).toEqual([real]);
    expect((await ls(b)).map((r) => r[0])).toEqual([rehearsed]);
    const words = await a.run(['__complete', 'sessions']);
    expect(words.stdout).toContain(real);
    expect(words.stdout).not.toContain(rehearsed);
    // A third service has none yet, and says which service it means.
    const none = await on(third.url).run(['show', 'last']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain(`error: no "last" session on ${third.url} for profile default yet`);
    expect(third.stats().requests).toBe(0);
  });

  it("an entry recorded before base URLs were is the profile's own service's", async () => {
    const [service, rehearsal] = [await emulator(), await emulator()];
    const env = cliEnv({ AGENTS_API_KEY: KEY });
    const run = (args: string[], extra: NodeJS.ProcessEnv = {}) =>
      runMain(args, { env: { ...env, ...extra } });
    expect((await run(['config', 'set', 'base-url', service.url])).code).toBe(0);
    // A session made on the service by another machine's older agents (its own state file).
    const made = await runMain(['create', '-a', 'claude', 'from an older agents'], {
      env: cliEnv({ AGENTS_BASE_URL: service.url, AGENTS_API_KEY: KEY }),
    });
    const old = made.stdout.trim();
    const file = join(env.AGENTS_CONFIG_DIR!, 'state.json');
    const legacy = {
      id: old,
      title: 'from an older agents',
      usedAt: '2026-01-01T00:00:00Z',
      state: 'working',
    };
    writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        last: { default: { id: old, at: legacy.usedAt } },
        sessions: { default: [legacy] },
      }),
    );
    expect((await ls({ run })).map((r) => r[0])).toEqual([old]);
    const elsewhere = await run(['ls'], { AGENTS_BASE_URL: rehearsal.url });
    expect(elsewhere.stdout).toBe('');
    expect((await run(['show', 'last'], { AGENTS_BASE_URL: rehearsal.url })).code).toBe(2);
    expect((await run(['show', 'last', '--json'])).code).toBe(0);
    // Still there, as it was, after the other service's history is written.
    expect((await run(['create', '-a', 'claude', 'new'], { AGENTS_BASE_URL: rehearsal.url })).code).toBe(0);
    expect((await ls({ run })).map((r) => r[0])).toEqual([old]);
    expect(readFileSync(file, 'utf8')).toContain(old);
  });
});
