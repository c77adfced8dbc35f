// The same-origin rule: a `_links` href is followed only on the base URL's origin. An href on another origin
// with a path under the API root is rebased onto our origin; anything else is refused. The key never
// reaches another host.
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiClient } from '../../src/api/client.js';
import { ApiError } from '../../src/api/errors.js';
import { FAST, json, listPage, makeMessages, startServer, type TestServer } from './helpers.js';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(...args: Parameters<typeof startServer>): Promise<TestServer> {
  const s = await startServer(...args);
  servers.push(s);
  return s;
}

const id = randomUUID();
const thread = randomUUID();
const finalPath = `/rest/v1/sessions/${id}/threads/${thread}/messages?type=final_message&role=assistant`;

describe('following links', () => {
  it('follows a same-origin href as given, query included', async () => {
    const s = await serve((req, res) => json(res, 200, listPage(s.url, req.url!, makeMessages(id, 2))));
    const page = await new ApiClient({ ...FAST, baseUrl: s.url }).listByHref(`${s.url}${finalPath}&gts=17`);
    expect(page.items).toHaveLength(2);
    expect(s.seen[0]!.url).toBe(`${finalPath}&gts=17`);
  });

  it('never sends the key to another origin: the href is rebased onto the base URL', async () => {
    const ours = await serve((req, res) => json(res, 200, listPage(ours.url, req.url!, makeMessages(id, 1))));
    const other = await serve((req, res) => json(res, 200, listPage(other.url, req.url!, [])));
    const c = new ApiClient({ ...FAST, baseUrl: ours.url });
    const page = await c.listByHref(`${other.url}${finalPath}`);
    expect(page.items).toHaveLength(1);
    expect(other.seen).toHaveLength(0);
    expect(ours.seen[0]!.url).toBe(finalPath);
  });

  it('rebases a bare /rest/v1 href under the base URL’s path prefix (a gateway the service does not know of)', async () => {
    const ours = await serve((req, res) => json(res, 200, listPage(ours.url, req.url!, [])));
    const other = await serve(() => undefined);
    const c = new ApiClient({ ...FAST, baseUrl: `${ours.url}/agents-api` });
    await c.listByHref(`${other.url}${finalPath}`);
    await c.listByHref(`${ours.url}/agents-api${finalPath}`);
    expect(other.seen).toHaveLength(0);
    expect(ours.seen.map((r) => r.url)).toEqual([`/agents-api${finalPath}`, `/agents-api${finalPath}`]);
  });

  it('refuses an href outside the API root, on any origin, without a request', async () => {
    const ours = await serve(() => undefined);
    const other = await serve(() => undefined);
    const c = new ApiClient({ ...FAST, baseUrl: `${ours.url}/agents-api` });
    for (const href of [
      `${other.url}/steal?x=1`,
      `${ours.url}/admin/rest/v1/sessions`,
      `${other.url}/v2/rest/v1/x`,
    ]) {
      const err = (await c.listByHref(href).catch((e: unknown) => e)) as ApiError;
      expect(err).toBeInstanceOf(ApiError);
      expect(err.kind).toBe('unexpected');
      expect(err.message).toMatch(
        /^refusing to follow the link .*: its path is not under \/agents-api\/rest\/v1\/$/,
      );
      expect(err.message).not.toContain('x=1');
    }
    expect(ours.seen).toHaveLength(0);
    expect(other.seen).toHaveLength(0);
    expect(c.requestCount).toBe(0);
  });

  it('parses a final_message href into target and query', () => {
    const c = new ApiClient({ ...FAST, baseUrl: 'https://api.example.com/' });
    expect(c.parseListHref(`https://api.example.com${finalPath}&gts=1700000000&type=message`)).toEqual({
      target: { sessionId: id, threadId: thread },
      query: { type: ['final_message', 'message'], role: 'assistant', gts: 1700000000 },
    });
    expect(
      c.parseListHref(`https://elsewhere.example/rest/v1/sessions/${id}/messages?direction=asc&limit=5`),
    ).toEqual({
      target: { sessionId: id },
      query: { direction: 'asc', limit: 5 },
    });
    expect(() => c.parseListHref(`https://api.example.com/rest/v1/sessions/${id}`)).toThrow(
      /not a messages list/,
    );
  });
});
