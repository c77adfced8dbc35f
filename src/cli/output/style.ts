// Colour, decided once per run: chalk's styles when colour is on, plain text otherwise.
const NAMES = ['bold', 'dim', 'cyan', 'green', 'yellow', 'red'] as const;

/** The few styles the renderers use. */
export type Style = Record<(typeof NAMES)[number], (s: string) => string>;

const styleOf = (paint: (name: keyof Style, s: string) => string) =>
  Object.fromEntries(NAMES.map((n) => [n, (s: string) => paint(n, s)])) as Style;

export const PLAIN: Style = styleOf((_n, s) => s);

/** chalk is loaded only when colour is on; its level is forced because we already decided. */
export async function createStyle(color: boolean): Promise<Style> {
  if (!color) return PLAIN;
  const c = new (await import('chalk')).Chalk({ level: 1 });
  return styleOf((n, s) => c[n](s));
}
