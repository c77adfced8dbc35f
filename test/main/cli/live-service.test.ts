// What broke against Blocks as it answers today (issue 11), each case against the emulator's live dialect,
// so that it fails if the break comes back: pull requests as objects, dashboard addresses with a workspace,
// sisyphus, the final reply stored twice, system notices, tool calls, a long Retry-After, plans and
// artifacts, and the key check of login.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message, Session } from '../../../src/core/api/types.js';
import { ApiClient } from '../../../src/core/api/client.js';
import { SANDBOX_NOTICE } from '../../../src/emulator/turn-player.js';
import { cliEnv } from '../../support/run-cli.js';
import { runMain } from '../../support/main.js';
import { DIALECTS, fixture, until } from '../../support/fixture.js';
import { endTurn } from '../../support/emulator.js';

const live = (o: Parameters<typeof fixture>[0] = {}) => fixture({ dialect: 'live', ...o });

/** Creates a session through the CLI and waits until its first turn has ended (notice included). */
async function finished(f: Awaited<ReturnType<typeof live>>, message: string): Promise<string> {
  const r = await f.run(['create', '-a', 'claude', message]);
  expect(r.code).toBe(0);
  const id = r.stdout.trim();
  endTurn(f.em, id);
  await until(() => f.em.messages(id).some((m) => m.chat_thread_id === null));
  return id;
}

const count = (text: string, needle: string) => text.split(needle).length - 1;

describe('the live service: sessions', () => {
  it('show prints pull requests given as {url, status} objects, each with its status', async () => {
    const f = await live();
    const id = await finished(f, '[[pr:https://github.com/o/r/pull/7]] go');
    const r = await f.run(['show', id]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('pull requests  https://github.com/o/r/pull/7 (open)');
    const json = JSON.parse((await f.run(['show', id, '--json'])).stdout) as { session: Session };
    expect(json.session.pull_requests).toEqual([{ url: 'https://github.com/o/r/pull/7', status: 'open' }]);
  });

  it('takes the dashboard address with its workspace, and an API address, as the session', async () => {
    const f = await live();
    const id = await finished(f, 'go');
    const session = JSON.parse((await f.run(['show', id, '--json'])).stdout) as { session: Session };
    for (const ref of [session.session.session_html_url, `${f.em.url}/rest/v1/sessions/${id}/messages`]) {
      const r = await f.run(['show', ref, '--json']);
      expect(r.code, ref).toBe(0);
      expect((JSON.parse(r.stdout) as { session: Session }).session.id).toBe(id);
    }
    expect(session.session.session_html_url).toMatch(/\/app\/dev\/sessions\//);
  });

  it('takes --agent sisyphus', async () => {
    const f = await live();
    const r = await f.run(['create', '--agent', 'sisyphus', '--wait', 'go']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('sisyphus finished');
  });
});

describe('the live service: each final reply once', () => {
  it('--follow, tail -n, a following tail, show and --follow --json', async () => {
    const f = await live();
    const reply = 'The one and only reply.';
    const prompt = `[[steps:2]] [[reply:${encodeURIComponent(reply)}]] go`;
    const follow = await f.run(['create', '-a', 'claude', '--follow', prompt]);
    expect(follow.code).toBe(0);
    expect(count(follow.stdout, reply)).toBe(1);
    const id = (JSON.parse((await f.run(['show', 'last', '--json'])).stdout) as { session: Session }).session
      .id;
    await until(() => f.em.messages(id).some((m) => m.chat_thread_id === null));
    const outputs = {
      'tail -n': await f.run(['tail', id, '-n', '10', '--until-final']),
      show: await f.run(['show', id]),
      'follow --json': await f.run(['send', id, '--follow', '--json', prompt]),
    };
    for (const [what, r] of Object.entries(outputs)) {
      expect(r.code, what).toBe(0);
      expect(count(r.stdout, reply), what).toBe(1);
    }
    // The JSON lines carry the final message itself, not the service's copy.
    const lines = outputs['follow --json'].stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Message);
    expect(lines.filter((m) => m.message === reply).map((m) => m.type)).toEqual(['final_message']);
    // A tail that follows a new turn as it lands.
    const tail = f.run(['tail', id, '-n', '0', '--until-final']);
    await until(() => (f.em.stats().byRoute['GET /sessions/:id/messages'] ?? 0) > 0);
    await f.run(['send', id, `[[think:200]] ${prompt}`]);
    const followed = await tail;
    expect(followed.code).toBe(0);
    expect(count(followed.stdout, reply)).toBe(1);
  });
});

describe('the live service: notices', () => {
  it('are never on stdout, are a dim line on stderr, and never a turn of their own', async () => {
    const f = await live();
    const follow = await f.run(['create', '-a', 'claude', '--follow', '[[steps:2]] go']);
    expect(follow.code).toBe(0);
    const id = (JSON.parse((await f.run(['show', 'last', '--json'])).stdout) as { session: Session }).session
      .id;
    await until(() => f.em.messages(id).some((m) => m.chat_thread_id === null));
    const show = await f.run(['show', id]);
    expect(show.stdout).not.toContain(SANDBOX_NOTICE);
    expect(show.stdout).toContain('turn 1');
    expect(show.stdout).not.toContain('turn 2');
    expect(show.stderr).toContain(`notice: ${SANDBOX_NOTICE}`);
    const json = JSON.parse((await f.run(['show', id, '--json'])).stdout) as {
      messages: Message[];
      notices: Message[];
    };
    expect(json.messages.some((m) => m.chat_thread_id === null)).toBe(false);
    expect(json.notices.map((m) => m.message)).toEqual([SANDBOX_NOTICE]);
    const quiet = await f.run(['--quiet', 'show', id]);
    expect(quiet.stderr).toBe('');
  });

  it('a notice after the final does not keep tail --until-final waiting', async () => {
    const f = await live();
    const id = await finished(f, 'go');
    // The newest item of the session is the notice; the turn has ended all the same.
    expect(f.em.messages(id).at(-1)?.chat_thread_id).toBeNull();
    const r = await f.run(['tail', id, '--until-final', '--timeout', '20s']);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain(SANDBOX_NOTICE);
  });
});

describe('the live service: tool calls', () => {
  it('with their arguments at the top ({__name__, command, description}): shown with them, exact in --json', async () => {
    const f = await live();
    // Step 4 is a shell call, which the live dialect sends with its arguments beside __name__.
    const id = await finished(f, '[[steps:4]] go');
    const text = await f.run(['show', id, '--tools']);
    expect(text.stdout).toContain('⚙ Bash  command="npm test -- --run step-4" description="Run the tests"\n');
    const json = await f.run(['show', id, '--tools', '--json']);
    const calls = (JSON.parse(json.stdout) as { messages: Message[] }).messages.filter(
      (m) => m.type === 'tool_call',
    );
    expect(calls.map((m) => JSON.parse(m.message) as unknown)).toEqual([
      { __name__: 'Read', input: 'src/module-2.ts' },
      { __name__: 'Bash', command: 'npm test -- --run step-4', description: 'Run the tests' },
    ]);
    const stored = f.em.messages(id).filter((m) => m.type === 'tool_call');
    expect(calls.map((m) => m.message)).toEqual(stored.map((m) => m.message));
  });

  it('print as one readable line; --json carries the call as sent', async () => {
    const f = await live();
    const id = await finished(f, '[[steps:2]] go');
    const text = await f.run(['tail', id, '-n', '10', '--tools', '--until-final']);
    expect(text.stdout).toContain('⚙ Read  src/module-2.ts\n');
    expect(text.stdout).not.toContain('__name__');
    const json = await f.run(['tail', id, '-n', '10', '--tools', '--until-final', '--json']);
    const tool = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Message)
      .find((m) => m.type === 'tool_call');
    expect(JSON.parse(tool?.message ?? '{}')).toEqual({ __name__: 'Read', input: 'src/module-2.ts' });
    // On a terminal the line is cut to its width.
    const narrow = await f.run(['tail', id, '-n', '10', '--tools', '--until-final'], {
      tty: { stdout: true, columns: 12 },
    });
    const line = narrow.stdout.split('\n').find((l) => l.includes('⚙'));
    expect(line).toMatch(/⚙ Read {2}s.*…/);
  });
});

describe('the live service: Retry-After', () => {
  it('a 429 asking for longer than our own longest wait is waited out as asked: one 429, not a string of them', async () => {
    // Our own longest wait is 8 s by default (maxDelayMs); 1 s here, so the Retry-After of 2 or 3 s that the
    // emulator gives is longer, as 9 s is than 8 s, in a third of the time.
    const f = await live({ rateLimit: { limit: 2, windowMs: 2500 } });
    const created = await fetch(`${f.em.url}/rest/v1/sessions`, {
      method: 'POST',
      headers: { authorization: 'ApiKey agents-dev-key', 'content-type': 'application/json' },
      body: JSON.stringify({ agent_name: 'claude', message: 'go' }),
    });
    const s = (await created.json()) as Session;
    // The create used one request of two; show needs two more: the second is refused with Retry-After 2 or 3.
    const r = await f.run(['show', s.id, '--json'], {
      tuning: { pacing: false, retry: { maxDelayMs: 1000 } },
    });
    expect(r.code).toBe(0);
    expect(f.em.stats().rejected429).toBe(1);
  }, 30_000);
});

describe.each(DIALECTS)('plans and artifacts against the %s dialect', (dialect) => {
  it('agent plan prints the latest plan; -o writes it; --json gives the record and text', async () => {
    const f = await fixture({ dialect });
    const id = await (async () => {
      const r = await f.run([
        'create',
        '-a',
        'claude',
        '--wait',
        '--json',
        '[[plan:%23%20Plan%0A-%20one]] go',
      ]);
      return (JSON.parse(r.stdout) as Message).chat_id;
    })();
    const r = await f.run(['plan', id]);
    if (dialect === 'spec') {
      // The spec has no plans: a clear line and the "not found" code.
      expect(r.code).toBe(4);
      expect(r.stderr).toMatch(/^error: session \S+ has no plan\n/);
      return;
    }
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('# Plan\n- one');
    const file = join(mkdtempSync(join(tmpdir(), 'agents-plan-')), 'plan.md');
    const o = await f.run(['plan', id, '-o', file]);
    expect(o.code).toBe(0);
    expect(o.stdout).toBe('');
    expect(readFileSync(file, 'utf8')).toBe('# Plan\n- one');
    const json = JSON.parse((await f.run(['plan', id, '--json'])).stdout) as {
      artifact: { kind: string };
      text: string;
    };
    expect(json).toMatchObject({ artifact: { kind: 'plan' }, text: '# Plan\n- one' });
    // Every download went to the artifact host without the key.
    expect(f.em.artifactRequests().length).toBeGreaterThanOrEqual(3);
    expect(f.em.artifactRequests().every((x) => !x.authorization)).toBe(true);
    const show = await f.run(['show', id]);
    expect(show.stdout).toContain(`plans          1 plan: agents plan ${id}`);
  });

  it('agents artifact downloads one; a bad id is exit 2 before any request; an unknown one exit 4', async () => {
    const f = await fixture({ dialect });
    const c = await f.run(['create', '-a', 'claude', 'go']);
    const id = c.stdout.trim();
    const a = f.em.addArtifact(id, { kind: 'file', content: 'report body', fileName: 'report.txt' });
    const r = await f.run(['artifact', id, a.id]);
    if (dialect === 'spec') {
      expect(r.code).toBe(4);
    } else {
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('report body');
    }
    f.em.resetStats();
    const bad = await f.run(['artifact', id, 'not-an-id']);
    expect(bad.code).toBe(2);
    expect(f.em.stats().requests).toBe(0);
    const unknown = await f.run(['artifact', id, crypto.randomUUID()]);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toMatch(/has no artifact/);
  });
});

describe('the live service: downloads', () => {
  it('an expired link is one clear error line, exit 1', async () => {
    const f = await live({ artifactTtlMs: -1 });
    const id = (await f.run(['create', '-a', 'claude', 'go'])).stdout.trim();
    const a = f.em.addArtifact(id, { kind: 'file', content: 'x' });
    const r = await f.run(['artifact', id, a.id]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^error: the download link has expired\nhint: /);
  });

  it('a binary artifact is not printed on a terminal, only written with -o', async () => {
    const f = await live();
    const id = (await f.run(['create', '-a', 'claude', 'go'])).stdout.trim();
    const a = f.em.addArtifact(id, { kind: 'file', content: Buffer.from([0, 1, 2, 255]), fileName: 'b.bin' });
    const tty = await f.run(['artifact', id, a.id], { tty: { stdout: true } });
    expect(tty.code).toBe(2);
    expect(tty.stderr).toMatch(/is not text/);
    const piped = await f.run(['artifact', id, a.id]);
    expect(piped.code).toBe(0);
    expect((piped as unknown as { stdoutBytes: Buffer }).stdoutBytes).toEqual(Buffer.from([0, 1, 2, 255]));
  });

  it('the client follows only https links (or loopback), never with the key, never a redirect', async () => {
    const seen: { url: string; authorization: boolean }[] = [];
    const server = createServer((req, res) => {
      seen.push({ url: req.url ?? '', authorization: req.headers.authorization !== undefined });
      if (req.url === '/moved') {
        res.writeHead(302, { location: 'https://elsewhere.invalid/file' });
        res.end();
        return;
      }
      res.end('content');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const client = new ApiClient({
        baseUrl: 'http://127.0.0.1:9',
        apiKey: 'secret-key-1234',
        retry: { maxRetries: 0 },
      });
      const got = await client.download(`${base}/file?X-Amz-Signature=s`);
      expect(got.bytes.toString()).toBe('content');
      await expect(client.download('http://example.invalid/file')).rejects.toThrow(/only https links/);
      await expect(client.download(`${base}/moved`)).rejects.toThrow(/redirected elsewhere .* not followed/);
      expect(seen.every((s) => !s.authorization)).toBe(true);
      expect(seen.map((s) => s.url)).toEqual(['/file?X-Amz-Signature=s', '/moved']);
    } finally {
      server.close();
    }
  });
});

describe('login checks the key with a random version-4 id', () => {
  it('not the all-zero one, which the live service may refuse as invalid', async () => {
    const paths: string[] = [];
    const server = createServer((req, res) => {
      paths.push(req.url ?? '');
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'Session not found' }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const r = await runMain(['login', '--with-key', '--base-url', base], {
        env: cliEnv(),
        input: 'key-123456789',
      });
      expect(r.code).toBe(0);
      expect(paths).toHaveLength(1);
      expect(paths[0]).toMatch(
        /^\/rest\/v1\/sessions\/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      );
      expect(paths[0]).not.toContain('00000000-0000-0000-0000-000000000000');
    } finally {
      server.close();
    }
  });
});
