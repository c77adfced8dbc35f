import type { BudgetView } from '../../../core/index.js';
import { jsonLine, type Handlers, type Printer } from '../../output/printer.js';
import type { Style } from '../../output/style.js';
import { formatDuration } from '../../../util/duration.js';
import { neutralize } from '../../../util/text.js';

/** A key's budget: where it is kept (`fleet`: a Redis), its view (none: no process used the key there). */
export type BudgetItem = {
  kind: 'budget';
  origin: string;
  where: string;
  fleet: boolean;
  view: BudgetView | undefined;
  watch: boolean;
};

/** The budget as one JSON document: times as ISO 8601, durations in ms. */
export function budgetJson(item: BudgetItem): Record<string, unknown> {
  const { view } = item;
  const where = { origin: item.origin, store: item.where, fleet: item.fleet };
  if (view === undefined) return { ...where, used: null };
  return {
    ...where,
    at: new Date(view.at).toISOString(),
    window_ms: view.windowMs,
    limit: view.limit,
    configured_limit: view.configured,
    used: view.used,
    in_flight: view.inFlight,
    next_free_at: view.nextFreeAt === undefined ? null : new Date(view.nextFreeAt).toISOString(),
    queued: view.queued,
    polling: view.polling,
    processes: view.processes.map((p) => ({
      command: p.command ?? null,
      queued: p.queued,
      polling: p.polling,
      in_flight: p.inFlight,
    })),
    rate_limited_last_hour: view.refusedLastHour,
  };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function waitsOf(p: BudgetView['processes'][number]): string {
  return [
    p.queued > 0 ? `${plural(p.queued, 'request')} waiting for a slot` : '',
    p.polling > 0 ? `${plural(p.polling, 'wait')} polling` : '',
  ]
    .filter(Boolean)
    .join(', ');
}

export function renderBudget(item: BudgetItem, style: Style): string {
  const { view } = item;
  const where = item.fleet ? `the fleet's budget in ${item.where}` : `this machine's budget (${item.where})`;
  if (view === undefined)
    return `no process has used this key ${item.fleet ? 'in this fleet' : 'on this machine'}\n`;
  const seconds = Math.round(view.windowMs / 1000);
  const lowered = view.limit < view.configured ? ` (lowered from ${view.configured} after a 429)` : '';
  const full = view.used >= view.limit;
  const used = `${view.used} of ${view.limit}${lowered}`;
  const next =
    view.nextFreeAt === undefined ? 'now' : `in ${formatDuration(Math.max(0, view.nextFreeAt - view.at))}`;
  const waiting = view.processes.filter((p) => p.queued > 0).length;
  const polling = view.processes.filter((p) => p.polling > 0).length;
  const lines = [
    style.bold(`Key of ${neutralize(item.origin)}: ${where}`),
    `  requests in the last ${seconds} s  ${full ? style.yellow(used) : used}${view.inFlight ? ` (${view.inFlight} in flight)` : ''}`,
    `  next free slot         ${next}`,
    `  waiting for a slot     ${view.queued === 0 ? 'none' : `${plural(view.queued, 'request')}, from ${plural(waiting, 'process', 'processes')}`}`,
    `  polling                ${view.polling === 0 ? 'none' : `${plural(view.polling, 'wait')}, in ${plural(polling, 'process', 'processes')}`}`,
    ...view.processes.map(
      (p) => `    ${neutralize(p.command ?? '(no command: the library, or an older agents)')}: ${waitsOf(p)}`,
    ),
    `  429s in the last hour  ${view.refusedLastHour > 0 ? style.red(String(view.refusedLastHour)) : '0'}`,
  ];
  return `${lines.join('\n')}\n`;
}

const drawn = new WeakMap<Printer, number>();

export const print: Handlers<BudgetItem> = {
  budget(p, item) {
    // A watch in a pipe is read by a program: a line of JSON a reading.
    if (p.json || (item.watch && !p.text.tty)) return p.out(jsonLine(budgetJson(item)));
    const text = renderBudget(item, p.text.style);
    if (item.watch && p.text.tty) {
      // Over the last reading: up as many lines as it took, and clear to the end of the screen.
      const before = drawn.get(p) ?? 0;
      p.out(`${before > 0 ? `\u001b[${before}F\u001b[0J` : ''}${text}`);
      drawn.set(p, text.split('\n').length - 1);
    } else p.out(text);
  },
};
