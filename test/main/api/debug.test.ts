// The debug trace: one line per request and per response, and the key nowhere in it.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api/client.js';
import { redact } from '../../../src/core/api/redact.js';
import { FAST, KEY, json, reset, serve } from '../../support/test-server.js';

const id = randomUUID();

describe('debug trace', () => {
  it('traces requests and responses with the key redacted everywhere', async () => {
    const s = await serve((req, res, seen) => {
      if (seen.method === 'POST' && s.seen.length === 1) return reset(req);
      // A server that echoes the Authorization header and the key into its bodies.
      json(res, seen.method === 'POST' ? 201 : 404, {
        id,
        error: `unknown key ${KEY}`,
        echo: req.headers.authorization,
        note: `ApiKey ${encodeURIComponent(KEY)}`,
      });
    });
    const lines: string[] = [];
    const c = new ApiClient({ ...FAST, baseUrl: s.url, debug: (line) => lines.push(line) });
    await expect(c.getSession(id)).rejects.toMatchObject({ kind: 'not_found' });
    await c.sendMessage(id, { message: `my key is ${KEY}` }).catch(() => undefined);
    await c.createSession({ message: `again ${KEY}`, agent_name: 'claude' });

    const trace = lines.join('\n');
    expect(trace).not.toContain(KEY);
    expect(trace).not.toContain(encodeURIComponent(KEY));
    expect(lines[0]).toBe(`→ GET ${s.url}/rest/v1/sessions/${id} (attempt 1)`);
    expect(lines[1]).toMatch(
      /^← 404 in \d+ ms, \d+ bytes: \{"id":.*"error":"unknown key \*\*\*".*ApiKey \*\*\*/,
    );
    expect(trace).toContain('"message":"my key is ***"');
    expect(lines.every((l) => !l.includes('\n'))).toBe(true);
  });
});

describe('redact', () => {
  it('replaces the key and whatever follows ApiKey', () => {
    expect(redact(`Authorization: ApiKey ${KEY}`, KEY)).toBe('Authorization: ApiKey ***');
    expect(redact('authorization: ApiKey other-key-123, x', KEY)).toBe('authorization: ApiKey ***, x');
    expect(redact(`url?k=${encodeURIComponent('a b/c+d')}`, 'a b/c+d')).toBe('url?k=***');
    expect(redact(`${KEY}${KEY}`, KEY)).toBe('******');
    expect(redact('nothing here', KEY)).toBe('nothing here');
  });

  it('leaves ordinary text alone when the key is too short to find safely', () => {
    expect(redact('a cat sat', 'a')).toBe('a cat sat');
  });
});
