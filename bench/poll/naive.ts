// The loop the issue measures the poller against, as a first attempt from the spec would be written: poll
// every second, follow each response's `_links.new_messages.href` with the list's default order (newest
// first) and take whatever items come back, stopping after a response that holds a final message. It
// trusts the server's cursor, so it inherits every hazard of `gts`; the bench counts what that costs.
import type { Message, MessagePage } from '../../src/core/api/types.js';
import { sleep } from '../../src/util/sleep.js';

/** GETs an href as a first attempt would: fetch with the key, the JSON page back. */
export function hrefGetter(apiKey: string): (href: string, signal: AbortSignal) => Promise<MessagePage> {
  return async (href, signal) => {
    const res = await fetch(href, { headers: { authorization: `ApiKey ${apiKey}` }, signal });
    if (!res.ok) throw new Error(`GET ${href}: HTTP ${res.status}`);
    return (await res.json()) as MessagePage;
  };
}

/** How to run the naive loop. */
export interface NaiveOptions {
  /** GETs a link (see hrefGetter). */
  get: (href: string, signal: AbortSignal) => Promise<MessagePage>;
  /** Where it starts: a create response's final_message href (wait) or thread href (follow). */
  href: string;
  /** Ends the loop; a loop that never saw a final message stops only here. */
  signal: AbortSignal;
  /** Each response's items in the order they came, with the moment they arrived (epoch ms). */
  onPage: (items: Message[], atMs: number) => void;
  /** Default 1000. */
  intervalMs?: number;
}

/** How a naive run ended. */
export interface NaiveResult {
  /** GETs sent, the one cut short by the deadline included. */
  requests: number;
  sawFinal: boolean;
}

export async function naivePoll(o: NaiveOptions): Promise<NaiveResult> {
  let href = o.href;
  let requests = 0;
  try {
    for (;;) {
      requests += 1;
      const page = await o.get(href, o.signal);
      o.onPage(page.items, Date.now());
      if (page.items.some((m) => m.type === 'final_message')) return { requests, sawFinal: true };
      const next = page._links?.new_messages?.href;
      if (next === undefined) throw new Error('the page has no new_messages link');
      href = next;
      await sleep(o.intervalMs ?? 1000, o.signal);
    }
  } catch (err) {
    // The deadline is how a naive loop that lost the final message ends; anything else breaks the bench.
    if (o.signal.aborted) return { requests, sawFinal: false };
    throw err;
  }
}
