// `agents create` end to end: the program (in-process) against the emulator, as a shell script and a CI job use it.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Message, Session } from '../../../src/core/api/types.js';
import { withoutProgress } from '../../support/main.js';
import {
  DIALECTS,
  conversationOf,
  fixture as baseFixture,
  polled,
  stopWhen,
  UUID,
} from '../../support/fixture.js';
import type { EmulatorOptions } from '../../../src/emulator/index.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'agents-create-'));

// Every case runs against both dialects of the emulator: the spec to the letter, and the live service.
describe.each(DIALECTS)('against the %s dialect', (dialect) => {
  const fixture = (opts: EmulatorOptions = {}, extraEnv: NodeJS.ProcessEnv = {}) =>
    baseFixture({ dialect, ...opts }, extraEnv);

  describe('agents create', () => {
    it('prints only the session id, and records it as last', async () => {
      const { run, em } = await fixture();
      const r = await run(['create', '-a', 'claude', 'Explain', 'this']);
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(/^[0-9a-f-]{36}\n$/);
      expect(r.stderr).toBe('');
      const id = r.stdout.trim();
      expect(em.messages(id)[0]?.message).toBe('Explain this');
      const shown = await run(['show', 'last', '--json']);
      expect((JSON.parse(shown.stdout) as { session: Session }).session.id).toBe(id);
    });

    it('piped prompt + --wait prints the final reply and nothing else, byte for byte', async () => {
      const { run, em } = await fixture();
      const prompt = 'Summarise\nthe "repo" [[reply:line%20one%0Aline%20two%0A%0A]]';
      const r = await run(['create', '--agent', 'claude', '--wait'], { input: prompt });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe('line one\nline two\n\n');
      // stderr (not a terminal) says where the wait is, and nothing else.
      expect(withoutProgress(r.stderr)).toBe('');
      expect(r.stderr).toMatch(/^Waiting for claude on session [0-9a-f-]{36} \(\S+\)\n$/);
      expect(em.stats().sessionsCreated).toBe(1);
    });

    it('--wait --json prints the final Message object', async () => {
      const { run } = await fixture();
      const r = await run(['create', '-a', 'gemini', '--wait', '--json', 'hi']);
      expect(r.code).toBe(0);
      const m = JSON.parse(r.stdout) as Message;
      expect(m.type).toBe('final_message');
      expect(m.role).toBe('assistant');
      expect(m.message).toContain('gemini');
    });

    it('--json without --wait prints the Session object', async () => {
      const { run } = await fixture();
      const r = await run(['create', '-a', 'kimi', '--json', 'hi']);
      const s = JSON.parse(r.stdout) as Session;
      expect(s.id).toMatch(UUID);
      expect(s._links.final_message?.href).toContain(`/sessions/${s.id}/threads/`);
    });

    it('--follow prints each assistant message as it lands and ends at the final one', async () => {
      const { run, em } = await fixture();
      const r = await run(['create', '-a', 'claude', '--follow', '--json', '[[steps:4]] go']);
      expect(r.code).toBe(0);
      const lines = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Message);
      const sessionId = lines[0]?.chat_id ?? '';
      // The conversation as stored: no notices, no copy of the final reply (see conversationOf).
      const stored = conversationOf(em.messages(sessionId))
        .filter((m) => m.type !== 'tool_call')
        .map((m) => m.id);
      expect(lines.map((m) => m.id)).toEqual(stored);
      expect(lines.at(-1)?.type).toBe('final_message');
      expect(new Set(lines.map((m) => m.message)).size).toBe(lines.length);
    });

    it('--follow in text mode prints one message per line block', async () => {
      const { run } = await fixture();
      const r = await run(['create', '-a', 'claude', '--follow', '[[steps:2]] [[reply:end]] go']);
      expect(r.code).toBe(0);
      expect(r.stdout.endsWith('end\n')).toBe(true);
      expect(r.stdout.split('\n').length).toBeGreaterThan(2);
    });

    it('--output writes the final text to a file too', async () => {
      const { run } = await fixture();
      const file = join(tmp(), 'reply.md');
      const r = await run([
        'create',
        '-a',
        'claude',
        '--wait',
        '-o',
        file,
        '[[reply:%23%20Title%0Abody]] go',
      ]);
      expect(r.code).toBe(0);
      expect(readFileSync(file, 'utf8')).toBe('# Title\nbody');
      expect(r.stdout).toBe('# Title\nbody');
    });

    it('reads the message from --file and from "-"', async () => {
      const { run, em } = await fixture();
      const file = join(tmp(), 'task.md');
      writeFileSync(file, 'from a file\n');
      const a = await run(['create', '-a', 'claude', '--file', file]);
      expect(em.messages(a.stdout.trim())[0]?.message).toBe('from a file\n');
      const b = await run(['create', '-a', 'claude', '-'], { input: 'from stdin' });
      expect(em.messages(b.stdout.trim())[0]?.message).toBe('from stdin');
    });

    it('refuses invalid UTF-8 from a file or stdin instead of sending U+FFFD in its place', async () => {
      const { run, em } = await fixture();
      const bad = Buffer.from([0x66, 0x69, 0x78, 0x20, 0xff, 0xfe, 0x0a]);
      const file = join(tmp(), 'latin1.txt');
      writeFileSync(file, bad);
      for (const r of [
        await run(['create', '-a', 'claude', '--file', file]),
        await run(['create', '-a', 'claude'], { input: bad }),
      ]) {
        expect(r.code).toBe(2);
        expect(r.stderr).toMatch(/^error: the message from .* is not valid UTF-8$/m);
        expect(r.stdout).toBe('');
      }
      expect(em.stats().requests).toBe(0);
    });

    it('does not read an open, idle stdin when the message is an argument', async () => {
      const { run } = await fixture();
      // stdin stays open and silent, like a CI runner's; the command must not wait for it.
      const r = await run(['create', '-a', 'claude', 'hello'], { idleStdin: true, killAfterMs: 10_000 });
      expect(r.signal).toBeNull();
      expect(r.code).toBe(0);
    });

    it('sends --private, --artifact, --agent-id and profiles as the API expects', async () => {
      const { run } = await fixture();
      const art = '11111111-2222-4333-8444-555555555555';
      const priv = await run(['create', '-a', 'claude', '--private', '--artifact', art, '--json', 'x']);
      expect((JSON.parse(priv.stdout) as Session).is_private).toBe(true);
      const byId = await run(['create', '--agent-id', art, 'x']);
      expect(byId.code).toBe(0);
      const byProfile = await run(['create', '--agent-profile', art, 'x']);
      expect(byProfile.code).toBe(0);
      const file = join(tmp(), 'profile.json');
      writeFileSync(file, JSON.stringify({ config_values: { model: 'big' }, mcp_servers: [] }));
      const byFile = await run(['create', '--agent-profile-file', file, 'x']);
      expect(byFile.code).toBe(0);
    });

    it('uses the configured default agent (AGENTS_AGENT)', async () => {
      const { run } = await fixture({}, { AGENTS_AGENT: 'opencode' });
      const r = await run(['create', '--wait', 'hi']);
      expect(r.code).toBe(0);
      expect(r.stdout).toContain('opencode');
    });

    it('--timeout ends with 124, naming the session and how to resume', async () => {
      const { run } = await fixture();
      const r = await run(['create', '-a', 'claude', '--wait', '--timeout', '1s', '[[never]] go']);
      expect(r.code).toBe(124);
      expect(r.stdout).toBe('');
      expect(withoutProgress(r.stderr)).toMatch(
        /^error: timed out after 1s waiting on session [0-9a-f-]{36}\nhint: .*agents tail [0-9a-f-]{36} --thread [0-9a-f-]{36} --until-final\n$/,
      );
    });

    it('Ctrl-C while waiting ends with 130, naming the session and how to resume', async () => {
      const { run, em } = await fixture();
      const r = await run(['create', '-a', 'claude', '--wait', '[[never]] go'], {
        onStart: stopWhen(polled(em), 'SIGINT'),
      });
      expect(r.code).toBe(130);
      expect(r.stderr).toMatch(/interrupted while waiting on session [0-9a-f-]{36}/);
      expect(r.stderr).toMatch(/agents tail [0-9a-f-]{36} --thread/);
    });

    it('SIGTERM while waiting ends cleanly too', async () => {
      const { run, em } = await fixture();
      const r = await run(['create', '-a', 'claude', '--wait', '[[never]] go'], {
        onStart: stopWhen(polled(em), 'SIGTERM'),
      });
      expect(r.code).toBe(130);
      expect(r.stderr).not.toMatch(/at .*\.js:\d+/);
    });
  });
});
