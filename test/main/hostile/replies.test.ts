// Replies that try to take over the terminal, replies the service should never send (NUL, lone
// surrogates, invalid UTF-8, 5 MB), answers whose JSON has the wrong shape, and links to another origin.
// On a terminal nothing from a reply may drive it; piped, the output is the text byte for byte; whatever
// arrives, the run ends with the contract's exit code and no stack trace; the key goes to one origin only.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { Message } from '../../../src/core/api/types.js';
import { cliEnv } from '../../support/run-cli.js';
import { runMain, withoutProgress } from '../../support/main.js';
import { finished, hostile, STACK, until, type Hostile } from '../../support/hostile.js';

const E = '\u001b';
/** Replies a directive can carry ([[reply:…]] URL-decodes them). */
const HOSTILE: Record<string, string> = {
  'clear screen': `A${E}[2J${E}[3J${E}[HB`,
  'cursor moves': `A${E}[10A${E}[5;5H${E}7${E}8B`,
  'OSC 52 clipboard write': `A${E}]52;c;cm0gLXJmIH4=\u0007B`,
  'OSC 0 title': `A${E}]0;pwned-title\u0007B`,
  'OSC 2 title (ST)': `A${E}]2;pwned-title${E}\\B`,
  'OSC 8 hyperlink': `A${E}]8;;http://evil.example/${E}\\click${E}]8;;${E}\\B`,
  'C1 CSI (U+009B)': 'A\u009b2J\u009b10AB',
  'C1 OSC (U+009D)': 'A\u009d0;pwned-title\u009cB',
  'bidi override (U+202E)': 'A\u202eevil\u202c\u2066isolate\u2069B',
  NUL: 'A\u0000B',
  'BEL, backspace, CR, DEL': 'A\u0007\u0008\rX\u007fB',
};
/** What addMessage alone can store. */
const LONE_SURROGATES = 'A\ud800B\udfffC';

/** Raw sequences from the replies that must never reach a terminal. */
const FORBIDDEN = [
  `${E}[2J`,
  `${E}[3J`,
  `${E}[H`,
  `${E}[10A`,
  `${E}[5;5H`,
  `${E}7`,
  `${E}8`,
  `${E}]`,
  `${E}\\`,
  '\u009b',
  '\u009c',
  '\u009d',
  '\u202e',
  '\u202c',
  '\u2066',
  '\u2069',
  '\u0000',
  '\u0007',
  '\u0008',
  '\u007f',
  '\ud800',
  '\udfff',
];

/**
 * Both streams claim to be a terminal (stdin does not: no prompt is involved). A width of 0 (a terminal
 * that reports none) keeps the spinner off: runMain's captured streams have no cursorTo/clearLine for ora,
 * and the spinner never shows service text (its label is the command's own).
 */
const TERMINAL = { tty: { stdout: true, stderr: true, columns: 0 } } as const;

/** Nothing raw on either stream; on stdout, the replies made visible rather than dropped. */
function expectHarmless(r: { stdout: string; stderr: string }) {
  for (const [name, text] of [
    ['stdout', r.stdout],
    ['stderr', r.stderr],
  ] as const) {
    for (const seq of FORBIDDEN) {
      expect(text.includes(seq), `raw ${JSON.stringify(seq)} reached the terminal on ${name}`).toBe(false);
    }
  }
  const screen = r.stdout;
  expect(screen).toContain('A^[[2J^[[3J^[[HB');
  expect(screen).toContain('^[]52;c;cm0gLXJmIH4=^GB');
  expect(screen).toContain('\\u{9b}2J');
  expect(screen).toContain('\\u{202e}evil');
  expect(screen).toContain('A^@B');
}

const reply = (text: string) => `[[reply:${encodeURIComponent(text)}]]`;

interface RawResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

/** Runs the program in-process with pipes (no terminal), keeping stdout as bytes. */
async function runRaw(args: string[], env: NodeJS.ProcessEnv): Promise<RawResult> {
  const r = await runMain(args, { env });
  return { code: r.code, stdout: r.stdoutBytes, stderr: r.stderr };
}

async function withEm<T>(body: (h: Hostile) => Promise<T>): Promise<T> {
  const h = await hostile();
  try {
    return await body(h);
  } finally {
    await h.close();
  }
}

/** A session whose turn is over, then every hostile text stored as an assistant message. */
async function hostileSession(h: Hostile): Promise<{ id: string; texts: string[] }> {
  const s = await h.createSession(`${E}]0;title-from-user${E}\\ ${E}[2J hi`);
  await until(() => finished(h.em, s.id));
  const texts = [...Object.values(HOSTILE), LONE_SURROGATES];
  texts.forEach((message, i) =>
    h.em.addMessage(s.id, {
      chat_thread_id: s.thread_id!,
      role: 'assistant',
      type: i === texts.length - 1 ? 'final_message' : 'message',
      message,
    }),
  );
  return { id: s.id, texts };
}

describe.concurrent('replies that try to drive the terminal', () => {
  it('create --wait in a terminal: the reply is shown, nothing of it drives the screen', async () => {
    await withEm(async ({ em, env }) => {
      const all = Object.values(HOSTILE).join(' | ');
      const r = await runMain(['create', '-a', 'claude', '--wait', `${E}]0;user-title\u0007 ${reply(all)}`], {
        env: { ...env, NO_COLOR: '1' },
        ...TERMINAL,
      });
      expect(r.code, r.stderr).toBe(0);
      expect(em.stats().sessionsCreated).toBe(1);
      expectHarmless(r);
    });
  });

  it('show and tail in a terminal: every stored message, lone surrogates too, made harmless', async () => {
    await withEm(async (h) => {
      const { id } = await hostileSession(h);
      const show = await runMain(['show', id], { env: { ...h.env, FORCE_COLOR: '1' }, ...TERMINAL });
      expect(show.code, show.stderr).toBe(0);
      // FORCE_COLOR took effect: the styling is the program's own, the replies' sequences are not.
      expect(show.stdout).toMatch(new RegExp(`${E}\\[[0-9;]*m`));
      expectHarmless(show);
      expect(show.stdout).toContain('A\ufffdB\ufffdC');
      const tail = await runMain(['tail', id, '-n', '50', '--until-final'], {
        env: { ...h.env, NO_COLOR: '1' },
        ...TERMINAL,
      });
      expect(tail.code, tail.stderr).toBe(0);
      expectHarmless(tail);
    });
  });

  it.for(Object.entries(HOSTILE))('piped create --wait prints %s byte for byte', async ([, text]) => {
    await withEm(async ({ env }) => {
      const r = await runRaw(['create', '-a', 'claude', '--wait', `${reply(text)} go`], env);
      expect(withoutProgress(r.stderr)).toBe('');
      expect(r.code).toBe(0);
      expect(r.stdout.equals(Buffer.from(text, 'utf8'))).toBe(true);
    });
  });

  it('piped tail and show --json carry every stored text as sent', async () => {
    await withEm(async (h) => {
      const { id, texts } = await hostileSession(h);
      const tail = await runRaw(['tail', id, '-n', String(texts.length), '--until-final'], h.env);
      expect(tail.code).toBe(0);
      expect(tail.stdout.equals(Buffer.from(texts.map((t) => `${t}\n`).join(''), 'utf8'))).toBe(true);
      const show = await runRaw(['show', id, '--json'], h.env);
      expect(show.code).toBe(0);
      const got = (JSON.parse(show.stdout.toString('utf8')) as { messages: Message[] }).messages;
      // JSON escapes lone surrogates, so even they arrive exactly.
      expect(got.slice(-texts.length).map((m) => m.message)).toEqual(texts);
    });
  });

  it('a 5 MB final message arrives whole, piped, as text and as JSON', async () => {
    await withEm(async ({ env }) => {
      const r = await runRaw(['create', '-a', 'claude', '--wait', '[[size:5242880]] big'], env);
      expect(r.code).toBe(0);
      expect(withoutProgress(r.stderr)).toBe('');
      expect(r.stdout.length).toBe(5_242_880);
      const j = await runRaw(['show', 'last', '--json', '--limit', '1'], env);
      expect(j.code).toBe(0);
      const final = (JSON.parse(j.stdout.toString('utf8')) as { messages: Message[] }).messages[0];
      expect(final?.message.length).toBe(5_242_880);
      expect(Buffer.from(final!.message, 'utf8').equals(r.stdout)).toBe(true);
    });
  });
});

// ── A service of our own that answers with broken shapes, and another origin that must hear nothing ──

const SID = '0b1c2d3e-4f50-4617-8829-3a4b5c6d7e8f';
const TID = '9a8b7c6d-5e4f-4a3b-9c2d-1e0f2a3b4c5d';
const SECRET = 'hostile-replies-key-9c7e41';

interface Answer {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
}
type Route = (method: string, path: string) => Answer | undefined;

interface Recorded {
  method: string;
  url: string;
  authorization: string | undefined;
}

async function listen(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
): Promise<{ server: Server; origin: string }> {
  const server = createServer(handle);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Runs `body` with a fake API answering through `route`, and a second origin that records every request. */
async function withFakeApi(
  route: (other: string) => Route,
  body: (api: { env: NodeJS.ProcessEnv; hits: Recorded[] }) => Promise<void>,
) {
  const hits: Recorded[] = [];
  const other = await listen((req, res) => {
    hits.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  const answer = route(other.origin);
  const api = await listen((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = (req.url ?? '').split('?')[0]!;
      const a = answer(req.method ?? '', path) ?? { status: 404, body: { error: 'no', code: 'NOT_FOUND' } };
      const raw = Buffer.isBuffer(a.body)
        ? a.body
        : Buffer.from(typeof a.body === 'string' ? a.body : JSON.stringify(a.body));
      res.writeHead(a.status ?? 200, { 'content-type': 'application/json', ...a.headers }).end(raw);
    });
  });
  try {
    await body({ env: cliEnv({ AGENTS_BASE_URL: api.origin, AGENTS_API_KEY: SECRET }), hits });
  } finally {
    api.server.close();
    other.server.close();
    api.server.closeAllConnections();
    other.server.closeAllConnections();
  }
}

/** Links of every kind, all pointing at the other origin. */
function links(other: string) {
  const to = (p: string) => ({ href: `${other}/rest/v1/sessions/${SID}${p}` });
  return {
    self: to(''),
    messages: to('/messages'),
    thread: to(`/threads/${TID}/messages`),
    final_message: to(`/threads/${TID}/messages?type=final_message&role=assistant`),
    new_messages: to('/messages?gts=0'),
  };
}

function session(other: string, extra: Record<string, unknown> = {}) {
  return {
    id: SID,
    title: 'a session',
    pull_requests: [],
    source_url: null,
    is_archived: false,
    is_private: false,
    created_at: '2024-01-01T00:00:00.000Z',
    updated_at: '2024-01-01T00:00:00.000Z',
    thread_id: TID,
    session_html_url: `${other}/app/sessions/${SID}`,
    _links: links(other),
    ...extra,
  };
}

function message(extra: Record<string, unknown> = {}) {
  return {
    id: 'c0ffee00-0000-4000-8000-000000000001',
    chat_id: SID,
    chat_thread_id: TID,
    task_id: 'c0ffee00-0000-4000-8000-0000000000aa',
    role: 'assistant',
    type: 'final_message',
    message: 'the answer',
    ts: 1_700_000_000,
    created_at: '2024-01-01T00:00:01.000Z',
    updated_at: '2024-01-01T00:00:01.000Z',
    ...extra,
  };
}

function page(
  other: string,
  items: unknown,
  meta: unknown = { total: 1, page: 1, limit: 100, total_pages: 1 },
) {
  return { items, meta, _links: links(other) };
}

/** What every run against a broken service must satisfy: an exit code of the contract, no stack trace. */
function expectCalm(r: RawResult, codes: number[] = [0, 1, 124]) {
  expect(codes).toContain(r.code);
  expect(r.stderr).not.toMatch(STACK);
  expect(r.stderr).not.toMatch(/TypeError|ReferenceError|SyntaxError|undefined is not|Cannot read prop/);
  expect(r.stderr).not.toMatch(/is not a function|must be of type/);
  if (r.code !== 0) expect(withoutProgress(r.stderr)).toMatch(/^error: [^\n]+\n(hint: [^\n]+\n)?$/);
}

const everyCommand = [
  ['show', SID],
  ['show', SID, '--all', '--json'],
  ['tail', SID, '--until-final', '--timeout', '3s'],
  ['create', '-a', 'claude', '--wait', '--timeout', '3s', 'hi'],
  ['send', SID, '--wait', '--timeout', '3s', 'again'],
];

/** Broken shapes, each served for every route it can appear on. */
const SHAPES: Record<string, (other: string) => Route> = {
  'message: 42, created_at garbage, ts "x", role null, _links missing': (o) => (m, p) => {
    const bad = message({ message: 42, created_at: 'garbage', ts: 'x', role: null, _links: undefined });
    if (p.endsWith('/messages')) return m === 'POST' ? { status: 201, body: bad } : { body: page(o, [bad]) };
    return {
      status: m === 'POST' ? 201 : 200,
      body: session(o, { created_at: 'garbage', title: 42, _links: undefined }),
    };
  },
  'items: null': (o) => (m, p) => {
    if (p.endsWith('/messages') && m === 'GET') return { body: page(o, null) };
    if (p.endsWith('/messages')) return { status: 201, body: message() };
    return { status: m === 'POST' ? 201 : 200, body: session(o) };
  },
  'items of null, 5 and a string; meta missing': (o) => (m, p) => {
    if (p.endsWith('/messages') && m === 'GET') return { body: { items: [null, 5, 'x'] } };
    if (p.endsWith('/messages')) return { status: 201, body: message() };
    return { status: m === 'POST' ? 201 : 200, body: session(o) };
  },
  'total_pages "lots" and the same page every time': (o) => (m, p) => {
    if (p.endsWith('/messages') && m === 'GET') {
      return {
        body: page(o, [message({ type: 'message' })], {
          total: 'many',
          page: 1,
          limit: 100,
          total_pages: 'lots',
        }),
      };
    }
    if (p.endsWith('/messages')) return { status: 201, body: message() };
    return { status: m === 'POST' ? 201 : 200, body: session(o) };
  },
  'bodies that are null, a number, an array, a string': () => (m, p) => {
    if (p.endsWith('/messages') && m === 'GET') return { body: '"just a string"' };
    if (p.endsWith('/messages')) return { status: 201, body: '[]' };
    return { status: m === 'POST' ? 201 : 200, body: m === 'POST' ? 'null' : '42' };
  },
  'ids of the wrong type (id: 42, thread_id: 7, chat_thread_id: {})': (o) => (m, p) => {
    if (p.endsWith('/messages') && m === 'GET') return { body: page(o, [message({ id: 42 })]) };
    if (p.endsWith('/messages')) return { status: 201, body: message({ id: 'x', chat_thread_id: {} }) };
    return {
      status: m === 'POST' ? 201 : 200,
      body: session(o, { thread_id: 7, id: m === 'POST' ? SID : 42 }),
    };
  },
  'redirects to the other origin (302 on reads, 307 on writes)': (o) => (m, p) => ({
    status: m === 'POST' ? 307 : 302,
    headers: { location: `${o}${p}` },
    body: '',
  }),
  'invalid UTF-8 inside the JSON strings': (o) => (m, p) => {
    const bytes = (s: object) => {
      const text = JSON.stringify(s).replace('INVALID', '\u0000');
      const b = Buffer.from(text, 'utf8');
      const at = b.indexOf(0);
      return Buffer.concat([b.subarray(0, at), Buffer.from([0xff, 0xfe, 0xc3]), b.subarray(at + 1)]);
    };
    if (p.endsWith('/messages') && m === 'GET')
      return { body: bytes(page(o, [message({ message: 'aINVALIDb' })])) };
    if (p.endsWith('/messages')) return { status: 201, body: message() };
    return { status: m === 'POST' ? 201 : 200, body: bytes(session(o, { title: 'tINVALIDt' })) };
  },
  'an HTML page with status 200': () => () => ({
    headers: { 'content-type': 'text/html' },
    body: '<html><body><h1>Welcome to nginx!</h1></body></html>',
  }),
};

describe.concurrent('answers of the wrong shape: calm exits, and the key stays home', () => {
  it.for(Object.keys(SHAPES))('%s', async (name) => {
    await withFakeApi(SHAPES[name]!, async ({ env, hits }) => {
      // Side by side: an unreadable answer is retried like a flaky one, by contract (in milliseconds here).
      const results = await Promise.all(everyCommand.map((args) => runRaw(args, env)));
      results.forEach((r, i) => {
        try {
          expectCalm(r);
        } catch (err) {
          throw new Error(
            `agents ${everyCommand[i]!.join(' ')} → ${r.code}\n${r.stderr}${(err as Error).message}`,
          );
        }
        expect(r.stderr).not.toContain(SECRET);
        expect(r.stdout.toString()).not.toContain(SECRET);
      });
      expect(hits).toEqual([]);
    });
  });

  it.for([
    ['create', '-a', 'claude', 'hi'],
    ['send', SID, 'again'],
  ])(
    'a 201 with an unusable body (%s): "was created, but the answer could not be read", and how to check',
    async (args) => {
      await withFakeApi(
        () => () => ({ status: 201, body: { id: 42, message: 7, thread_id: 7 } }),
        async ({ env }) => {
          const r = await runRaw(args, env);
          expect(r.code).toBe(1);
          expect(r.stderr).toMatch(
            /^error: the (session|message) was created, but the answer could not be read: [^\n]+\nhint: it was not sent again, to avoid a duplicate; (look for it in the dashboard|check with: agents show [0-9a-f-]{36})[^\n]*\n$/,
          );
        },
      );
    },
  );

  it('well-formed answers whose links all point elsewhere: the commands work, the other origin hears nothing', async () => {
    await withFakeApi(
      (o) => (m, p) => {
        if (p.endsWith('/messages') && m === 'GET') return { body: page(o, [message()]) };
        if (p.endsWith('/messages'))
          return { status: 201, body: { ...message({ role: 'user', type: 'message' }), _links: links(o) } };
        return { status: m === 'POST' ? 201 : 200, body: session(o) };
      },
      async ({ env, hits }) => {
        for (const args of everyCommand) {
          const r = await runRaw(args, env);
          expect(r.code, `agents ${args.join(' ')}: ${r.stderr}`).toBe(0);
        }
        expect(hits).toEqual([]);
      },
    );
  });
});
