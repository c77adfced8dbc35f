// Plain-text formatting of the bench's results: one table of figures against targets, then raw numbers.

/** One line of the results table. */
export interface Row {
  scenario: string;
  poller: string;
  figure: string;
  target: string;
  /** undefined: no target applies (the baseline). */
  met: boolean | undefined;
}

/** Milliseconds for people: "never" for a message that never came. */
export function ms(value: number): string {
  if (!Number.isFinite(value)) return 'never';
  return Math.abs(value) < 1000 ? `${Math.round(value)} ms` : `${(value / 1000).toFixed(2)} s`;
}

/** KiB (as maxRSS reports it) in MB. */
export function mb(kib: number): string {
  return `${((kib * 1024) / 1e6).toFixed(1)} MB`;
}

/** KiB in MiB. */
export function mib(kib: number): string {
  return `${(kib / 1024).toFixed(1)} MiB`;
}

/** Thousands separated, for message counts. */
export function count(n: number): string {
  return n.toLocaleString('en-US');
}

export function formatTable(rows: Row[]): string {
  const head = { scenario: 'scenario', poller: 'poller', figure: 'figure', target: 'target', met: 'met?' };
  const cells = rows.map((r) => ({
    ...r,
    met: r.met === undefined ? '-' : r.met ? 'yes' : 'NO',
  }));
  const all = [head, ...cells];
  const width = (key: keyof typeof head) => Math.max(...all.map((r) => r[key].length));
  const keys: (keyof typeof head)[] = ['scenario', 'poller', 'figure', 'target', 'met'];
  const widths = keys.map(width);
  const line = (r: Record<keyof typeof head, string>) =>
    keys
      .map((k, i) => r[k].padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return [line(head), rule, ...cells.map(line)].join('\n');
}
