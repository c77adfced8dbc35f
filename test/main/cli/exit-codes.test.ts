// Every exit code of the contract, from the program run in-process (as the binary runs it: main's code).
import { describe, expect, it } from 'vitest';
import { createServer } from 'node:net';
import { fixture } from '../../support/fixture.js';
import { cliEnv } from '../../support/run-cli.js';
import { runMain } from '../../support/main.js';

const NOWHERE = '00000000-0000-4000-8000-000000000000';

async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe('exit codes', () => {
  it('0 on success', async () => {
    const f = await fixture();
    expect((await f.run(['create', '-a', 'claude', 'x'])).code).toBe(0);
  });

  it('2 on usage errors, with one error line and nothing sent', async () => {
    const f = await fixture();
    for (const args of [
      ['create', '-a', 'nobody', 'x'],
      ['create', '-a', 'claude', '--timeout', 'soon', '--wait', 'x'],
      ['create', '-a', 'claude', '--agent-id', 'not-a-uuid', 'x'],
      ['create', '-a', 'claude', '--wait', '--follow', 'x'],
      ['create', '-a', 'claude', '   '],
      ['send', 'nope', 'x'],
      ['show', 'last'],
      ['tail', 'x'],
      ['tail', NOWHERE, '-n', '-1'],
      ['show', NOWHERE, '--limit', '0'],
      ['frobnicate'],
    ]) {
      const r = await f.run(args);
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stdout).toBe('');
      expect(r.stderr.split('\n')[0]).toMatch(/^error: /);
    }
    expect(f.em.stats().requests).toBe(0);
  });

  it('2 when no agent can be chosen in CI, before anything is sent', async () => {
    const f = await fixture({}, { CI: 'true' });
    const r = await f.run(['create', 'hello']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no agent given');
    expect(f.em.stats().requests).toBe(0);
  });

  it('3 on a rejected key (401) and a forbidden one (403), with one clean line', async () => {
    const f = await fixture({
      keys: [
        { key: 'agents-dev-key', workspace: 'dev' },
        { key: 'blocked-key-123', workspace: 'dev', forbidden: true },
      ],
    });
    const bad = await f.run(['show', NOWHERE], { env: { ...f.env, AGENTS_API_KEY: 'wrong-key-0000' } });
    expect(bad.code).toBe(3);
    expect(bad.stderr).not.toMatch(/<html|<body/i);
    expect(bad.stderr).not.toContain('wrong-key-0000');
    const forbidden = await f.run(['show', NOWHERE], {
      env: { ...f.env, AGENTS_API_KEY: 'blocked-key-123' },
    });
    expect(forbidden.code).toBe(3);
    expect(forbidden.stderr).not.toContain('blocked-key-123');
  });

  it('3 with a hint when no key is configured at all', async () => {
    const f = await fixture();
    const env = { ...f.env };
    delete env.AGENTS_API_KEY;
    const r = await f.run(['create', '-a', 'claude', 'x'], { env });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain('agents login');
  });

  it('4 on a session that does not exist, for show, send and tail', async () => {
    const f = await fixture();
    for (const args of [
      ['show', NOWHERE],
      ['send', NOWHERE, 'x'],
      ['tail', NOWHERE],
    ]) {
      const r = await f.run(args);
      expect({ args, code: r.code }).toEqual({ args, code: 4 });
    }
  });

  it('1 when the service fails, and the create is not repeated', async () => {
    const f = await fixture({ faults: { rate: 1, modes: ['500'], methods: ['POST'] } });
    const r = await f.run(['create', '-a', 'claude', 'x']);
    expect(r.code).toBe(1);
    expect(f.em.stats().requests).toBe(1);
  });

  it('1 when the connection is reset after the service created the session, saying so', async () => {
    const f = await fixture({ faults: { rate: 1, modes: ['reset-after-commit'], methods: ['POST'] } });
    const r = await f.run(['create', '-a', 'claude', 'x']);
    expect(r.code).toBe(1);
    expect(f.em.stats().sessionsCreated).toBe(1);
    expect(f.em.stats().requests).toBe(1);
    expect(r.stderr).toMatch(/may have been created/);
  });

  it('1 when the service cannot be reached', async () => {
    const port = await closedPort();
    const env = cliEnv({ AGENTS_BASE_URL: `http://127.0.0.1:${port}`, AGENTS_API_KEY: 'k-123456789' });
    const r = await runMain(['show', NOWHERE], { env });
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n')[0]).toMatch(/^error: /);
  });
});

describe('per-request time-outs from the environment', () => {
  it('AGENTS_RESPONSE_TIMEOUT bounds a request that never answers (a create is then not repeated)', async () => {
    const f = await fixture({ faults: { rate: 1, modes: ['slow'], methods: ['POST'], slowMs: 8000 } });
    const r = await f.run(['create', '-a', 'claude', 'x'], {
      env: { ...f.env, AGENTS_RESPONSE_TIMEOUT: '0.5' },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no answer from .* within 500 ms/);
    expect(r.stderr).toMatch(/may have been created/);
    expect(f.em.stats().sessionsCreated).toBe(1);
    expect(f.em.stats().requests).toBe(1);
  });

  it('a value that is not a duration is a usage error, nothing sent', async () => {
    const f = await fixture();
    for (const name of ['AGENTS_CONNECT_TIMEOUT', 'AGENTS_RESPONSE_TIMEOUT']) {
      const r = await f.run(['show', NOWHERE], { env: { ...f.env, [name]: 'soon' } });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe(
        `error: ${name}="soon" is not a duration\nhint: use e.g. 15s, 2m or a number of seconds\n`,
      );
    }
    expect(f.em.stats().requests).toBe(0);
  });
});
