// What goes on the wire: headers, addresses under the base URL (prefix and trailing slash tolerated), list
// queries, and the paging of iterateMessages.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ApiClient } from '../../../src/core/api/client.js';
import { VERSION } from '../../../src/util/version.js';
import { Follower, firstMessage } from '../../../src/core/poll/follow.js';
import { DEFAULT_SCHEDULE } from '../../../src/core/poll/schedule.js';
import { runMain } from '../../support/main.js';
import { cliEnv } from '../../support/run-cli.js';
import { FAST, KEY, json, listPage, makeMessages, session, serve } from '../../support/test-server.js';
import type { Message } from '../../../src/core/api/types.js';

const id = randomUUID();
const thread = randomUUID();

describe('requests', () => {
  it('sends the key, Accept and a User-Agent naming the tool, its version and Node', async () => {
    const s = await serve((req, res) =>
      req.url!.includes('/messages')
        ? json(res, 200, listPage(s.url, req.url!, []))
        : json(res, 200, session(s.url, id)),
    );
    await new ApiClient({ ...FAST, baseUrl: s.url }).getSession(id);
    const { headers, method, url } = s.seen[0]!;
    expect(method).toBe('GET');
    expect(url).toBe(`/rest/v1/sessions/${id}`);
    expect(headers.authorization).toBe(`ApiKey ${KEY}`);
    expect(headers.accept).toBe('application/json');
    // The client alone names the tool and its version; the CLI's client adds the Node it runs on.
    expect(headers['user-agent']).toBe(`agents/${VERSION}`);
    expect(headers['content-type']).toBeUndefined();

    const run = await runMain(['show', id, '--json'], {
      env: cliEnv({ AGENTS_API_KEY: KEY, AGENTS_BASE_URL: s.url }),
    });
    expect(run.code).toBe(0);
    const cli = s.seen.slice(1);
    expect(cli.length).toBeGreaterThan(0);
    for (const r of cli) {
      expect(r.headers['user-agent']).toBe(`agents/${VERSION} node/${process.version}`);
      expect(r.headers.authorization).toBe(`ApiKey ${KEY}`);
    }
  });

  it('sends requests one after another over one kept-alive connection', async () => {
    // undici hands a socket back to its pool a turn of the event loop after the response: a request sent
    // at once would open a second connection (another TCP and TLS handshake), as show's second GET did.
    const sockets = new Set<unknown>();
    const s = await serve((req, res) => {
      sockets.add(req.socket);
      json(res, 200, session(s.url, id));
    });
    const client = new ApiClient({ ...FAST, baseUrl: s.url });
    for (let i = 0; i < 4; i++) await client.getSession(id);
    expect(s.seen.length).toBe(4);
    expect(sockets.size).toBe(1);
  });

  it('POSTs JSON with a Content-Type to the create and send addresses', async () => {
    const s = await serve((req, res) =>
      req.url === '/rest/v1/sessions'
        ? json(res, 201, session(s.url, id))
        : json(res, 201, { id: randomUUID(), chat_thread_id: thread, _links: {} }),
    );
    const c = new ApiClient({ ...FAST, baseUrl: s.url });
    const created = await c.createSession({ message: 'héllo', agent_name: 'codex', is_private: true });
    expect(created.id).toBe(id);
    const sent = await c.sendMessage(id, { message: 'more' });
    expect(sent.chat_thread_id).toBe(thread);
    expect(s.seen.map((r) => `${r.method} ${r.url}`)).toEqual([
      'POST /rest/v1/sessions',
      `POST /rest/v1/sessions/${id}/messages`,
    ]);
    expect(s.seen[0]!.headers['content-type']).toBe('application/json');
    expect(JSON.parse(s.seen[0]!.body)).toEqual({ message: 'héllo', agent_name: 'codex', is_private: true });
    expect(c.requestCount).toBe(2);
  });

  it('keeps a base path prefix and tolerates a trailing slash', async () => {
    const s = await serve((_req, res) => json(res, 200, session(s.url, id)));
    for (const base of [`${s.url}/gw/agents/`, `${s.url}/gw/agents`, `${s.url}/gw/agents/rest/v1/`]) {
      await new ApiClient({ ...FAST, baseUrl: base }).getSession(id);
    }
    expect(s.seen.map((r) => r.url)).toEqual(Array(3).fill(`/gw/agents/rest/v1/sessions/${id}`));
  });

  it('builds list queries: repeated type, threaded form, every parameter', async () => {
    const s = await serve((req, res) => json(res, 200, listPage(s.url, req.url!, [])));
    const c = new ApiClient({ ...FAST, baseUrl: s.url });
    await c.listMessages(
      { sessionId: id, threadId: thread },
      {
        type: ['message', 'tool_call'],
        role: 'assistant',
        gts: 1700000000.5,
        page: 2,
        limit: 100,
        direction: 'asc',
      },
    );
    await c.listMessages({ sessionId: id }, { thread_id: thread });
    await c.listMessages({ sessionId: id }, {});
    expect(s.seen.map((r) => r.url)).toEqual([
      `/rest/v1/sessions/${id}/threads/${thread}/messages?type=message&type=tool_call&role=assistant&gts=1700000000.5&page=2&limit=100&direction=asc`,
      `/rest/v1/sessions/${id}/messages?thread_id=${thread}`,
      `/rest/v1/sessions/${id}/messages`,
    ]);
  });

  it('refuses a base URL that is not http(s) before sending anything', () => {
    // The CLI validates base URLs first (validateBaseUrl): here a bad one is a programming error.
    expect(() => new ApiClient({ ...FAST, baseUrl: 'ftp://example.com' })).toThrow(TypeError);
    expect(() => new ApiClient({ ...FAST, baseUrl: 'ftp://example.com' })).toThrow(/not http or https/);
    expect(() => new ApiClient({ ...FAST, baseUrl: 'not a url' })).toThrow(TypeError);
    expect(() => new ApiClient({ ...FAST, baseUrl: 'not a url' })).toThrow(/Invalid URL/);
  });

  it('never sends the key to another origin, whatever addresses the answers carry', async () => {
    // Every `_links` href (and session_html_url) the service returns names another origin.
    const other = await serve((_req, res) => json(res, 200, {}));
    const history = makeMessages(id, 250);
    const final: Message = { ...makeMessages(id, 1)[0]!, type: 'final_message', chat_thread_id: thread };
    const ours = await serve((req, res, seen) => {
      const path = new URL(req.url!, 'http://x').pathname;
      if (seen.method === 'POST' && path === '/rest/v1/sessions') {
        return json(res, 201, { ...session(other.url, id), thread_id: thread });
      }
      if (seen.method === 'POST') {
        return json(res, 201, {
          ...makeMessages(id, 1)[0],
          role: 'user',
          chat_thread_id: thread,
          _links: {
            self: { href: `${other.url}${path}` },
            thread: { href: `${other.url}/rest/v1/sessions/${id}/threads/${thread}/messages` },
            final_message: {
              href: `${other.url}/rest/v1/sessions/${id}/threads/${thread}/messages?type=final_message`,
            },
          },
        });
      }
      if (path.endsWith(`/threads/${thread}/messages`))
        return json(res, 200, listPage(other.url, req.url!, [final]));
      if (path.endsWith('/messages')) return json(res, 200, listPage(other.url, req.url!, history));
      return json(res, 200, session(other.url, id));
    });
    const c = new ApiClient({ ...FAST, baseUrl: ours.url });
    const created = await c.createSession({ message: 'hi', agent_name: 'claude' });
    expect(created._links.self.href).toBe(`${other.url}/rest/v1/sessions/${id}`);
    await c.getSession(id);
    await c.sendMessage(id, { message: 'more' });
    const all: string[] = [];
    for await (const m of c.iterateMessages({ sessionId: id }, {})) all.push(m.id);
    expect(all).toHaveLength(250);
    const follower = new Follower({
      client: c,
      target: { sessionId: id, threadId: thread },
      types: ['final_message'],
      untilFinal: true,
      schedule: { ...DEFAULT_SCHEDULE, minMs: 1, maxMs: 5 },
    });
    expect((await firstMessage(follower)).id).toBe(final.id);

    expect(other.seen).toHaveLength(0);
    expect(ours.seen.length).toBe(c.requestCount);
    expect(ours.seen.every((r) => r.url.startsWith(`/rest/v1/sessions`))).toBe(true);
    expect(ours.seen.every((r) => r.headers.authorization === `ApiKey ${KEY}`)).toBe(true);
  });
});

describe('iterateMessages', () => {
  it('returns every one of 250 messages once, in order, 100 a page, whatever page/limit the query says', async () => {
    const messages = makeMessages(id, 250);
    const s = await serve((req, res) => json(res, 200, listPage(s.url, req.url!, messages)));
    const c = new ApiClient({ ...FAST, baseUrl: s.url });
    const asc: Message[] = [];
    for await (const m of c.iterateMessages({ sessionId: id }, { direction: 'asc', page: 7, limit: 3 }))
      asc.push(m);
    expect(asc.map((m) => m.id)).toEqual(messages.map((m) => m.id));
    expect(s.seen.map((r) => new URL(r.url, s.url).searchParams.get('page'))).toEqual(['1', '2', '3']);
    expect(s.seen.every((r) => new URL(r.url, s.url).searchParams.get('limit') === '100')).toBe(true);

    const desc: string[] = [];
    for await (const m of c.iterateMessages({ sessionId: id }, {})) desc.push(m.id);
    expect(desc).toEqual(messages.map((m) => m.id).reverse());
  });

  it('yields a message once even when new ones shift a descending list between pages', async () => {
    const messages = makeMessages(id, 150);
    const s = await serve((req, res) => {
      const body = listPage(s.url, req.url!, messages);
      // A new message lands after each page is served: page 2 then repeats the last item of page 1.
      messages.push(...makeMessages(id, 1));
      json(res, 200, body);
    });
    const c = new ApiClient({ ...FAST, baseUrl: s.url });
    const got: string[] = [];
    for await (const m of c.iterateMessages({ sessionId: id }, {})) got.push(m.id);
    expect(new Set(got).size).toBe(got.length);
    expect(got.length).toBeGreaterThanOrEqual(150);
  });

  it('stops at an empty page', async () => {
    const s = await serve((req, res) => json(res, 200, listPage(s.url, req.url!, [])));
    const c = new ApiClient({ ...FAST, baseUrl: s.url });
    const got: Message[] = [];
    for await (const m of c.iterateMessages({ sessionId: id }, {})) got.push(m);
    expect(got).toEqual([]);
    expect(s.seen).toHaveLength(1);
  });
});
