// What a wait says when a poll fails and it keeps waiting: one wording for `agents … --wait` and the Action.

/** A poll refused with 429: other processes or machines spent the key's minute. */
export const RATE_LIMITED_LINE =
  "the key's requests are spent for now (429, other processes or machines); still waiting";

/** A poll that failed otherwise; `left` says how many more failures the wait rides out (empty: until its time). */
export function failingLine(reason: string, left = ''): string {
  return `the service is failing: ${reason}; still waiting${left}`;
}
