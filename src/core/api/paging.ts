// Paging that cannot run away: a server that reports a million pages and sends the same items on each would
// keep a reader paging (and spend the key's budget for every other job) for ever.
import { HttpError } from './errors.js';
import type { MessagePage } from './types.js';

/**
 * Stops a paged read with an error when a page adds no message not seen, or when it asks for more pages than
 * the first answer's total can fill (one page of slack, for messages stored meanwhile).
 */
export class PageGuard {
  private allowed = Number.POSITIVE_INFINITY;

  constructor(private readonly what: string) {}

  /** After page `page` answered `res`, `added` of its items new to this read. */
  check(page: number, res: MessagePage, added: number): void {
    if (page === 1) {
      // The page size the server really used, from what it sent, not from what it says it used.
      const per = res.items.length;
      this.allowed = per === 0 || res.meta.total <= per ? 2 : Math.ceil(res.meta.total / per) + 1;
      return;
    }
    if (res.items.length > 0 && added === 0) {
      throw this.error(`page ${page} repeated messages already read`);
    }
  }

  /** Throws when page `next` is past what the first answer counted. */
  allow(next: number): void {
    if (next > this.allowed) {
      throw this.error(`it kept reporting more pages than its total of messages can fill (page ${next})`);
    }
  }

  private error(why: string): HttpError {
    return new HttpError({
      kind: 'unexpected',
      status: 200,
      message: `unexpected answer: paging ${this.what} made no progress: ${why}; stopped`,
    });
  }
}
