// One poller following a burst to its end, alone in its process so that the peak RSS it reports is the
// follower's own: the emulator and the bookkeeping stay in the parent. Each message goes to stdout as one
// JSON line, the way `--follow --json` prints it; reports go to the parent over the IPC channel.
import { ApiClient } from '../../src/core/api/client.js';
import type { Message } from '../../src/core/api/types.js';
import { Follower, type MessageLister } from '../../src/core/poll/follow.js';
import { CHILD_ENV, type ChildConfig, type ChildReport, type ChildResult } from './child-protocol.js';
import { hrefGetter, naivePoll } from './naive.js';

function send(report: ChildReport): Promise<void> {
  return new Promise((resolve, reject) => {
    if (!process.send) {
      reject(new Error('no IPC channel: this script is started by bench/poll.mjs'));
      return;
    }
    process.send(report, (err: Error | null) => (err ? reject(err) : resolve()));
  });
}

function readConfig(): ChildConfig {
  const raw = process.env[CHILD_ENV];
  if (raw === undefined) throw new Error(`${CHILD_ENV} is not set: this script is started by bench/poll.mjs`);
  return JSON.parse(raw) as ChildConfig;
}

/** Long enough for the background compile that follows a first request (about 0.5 s here). */
const ONE_REQUEST_PAUSE_MS = 2000;

function peakRssKb(): number {
  return process.resourceUsage().maxRSS;
}

async function follow(cfg: ChildConfig): Promise<ChildResult> {
  const client = new ApiClient({ baseUrl: cfg.baseUrl, apiKey: cfg.apiKey });
  const signal = AbortSignal.timeout(cfg.deadlineMs);
  let polled = false;
  const onResponse = () => {
    if (polled) return;
    polled = true;
    void send({ kind: 'polled' });
  };
  let firstAtMs: number | undefined;
  let finalAtMs: number | undefined;
  const onMessage = (m: Message) => {
    process.stdout.write(`${JSON.stringify(m)}\n`);
    const now = Date.now();
    firstAtMs ??= now;
    if (m.type === 'final_message') finalAtMs ??= now;
  };

  let requests: number;
  if (cfg.mode === 'ours') {
    // Delegates every call unchanged; it only tells the parent when the first answer is in.
    const lister: MessageLister = {
      async listMessages(target, query, options) {
        const page = await client.listMessages(target, query, options);
        onResponse();
        return page;
      },
    };
    // What `--follow` builds: the default types, ending at the final message.
    const follower = new Follower({
      client: lister,
      target: { sessionId: cfg.sessionId, threadId: cfg.threadId },
      untilFinal: true,
      signal,
    });
    try {
      for await (const m of follower) onMessage(m);
    } catch (err) {
      if (!signal.aborted) throw err;
    }
    requests = follower.requests;
  } else {
    const result = await naivePoll({
      get: hrefGetter(cfg.apiKey),
      href: cfg.threadHref,
      signal,
      onPage: (items) => {
        onResponse();
        items.forEach(onMessage);
      },
    });
    requests = result.requests;
  }
  return {
    kind: 'result',
    requests,
    clientRequests: client.requestCount,
    maxRssKb: peakRssKb(),
    sawFinal: finalAtMs !== undefined,
    firstAtMs,
    finalAtMs,
    timedOut: signal.aborted,
  };
}

/**
 * One list request, then a pause: the memory any process making a request pays, follower or not (undici
 * and its WebAssembly HTTP parser; without --liftoff-only, V8's TurboFan tier-up of that parser after the
 * first request added a transient of some 30 MB).
 */
async function oneRequest(cfg: ChildConfig): Promise<ChildResult> {
  const client = new ApiClient({ baseUrl: cfg.baseUrl, apiKey: cfg.apiKey });
  await client.listMessages({ sessionId: cfg.sessionId, threadId: cfg.threadId }, {});
  await new Promise((resolve) => setTimeout(resolve, ONE_REQUEST_PAUSE_MS));
  return {
    kind: 'result',
    requests: 1,
    clientRequests: client.requestCount,
    maxRssKb: peakRssKb(),
    sawFinal: false,
    timedOut: false,
  };
}

async function main(): Promise<void> {
  const cfg = readConfig();
  if (cfg.mode === 'baseline') {
    // Started, modules imported (statically, by this bundle), nothing followed.
    await send({
      kind: 'result',
      requests: 0,
      clientRequests: 0,
      maxRssKb: peakRssKb(),
      sawFinal: false,
      timedOut: false,
    });
    return;
  }
  await send(await (cfg.mode === 'one-request' ? oneRequest(cfg) : follow(cfg)));
}

// Exit once stdout has drained (a pipe the parent reads more slowly than 10,000 lines are written keeps the
// rest queued in this process, and exiting then lost it: the bench counted those messages as missed), but
// not later: the client's keep-alive sockets would otherwise hold the process open for seconds.
main().then(
  () => process.stdout.write('', () => process.exit(0)),
  (err: unknown) => {
    console.error('bench/poll burst child failed:', err);
    process.exit(1);
  },
);
