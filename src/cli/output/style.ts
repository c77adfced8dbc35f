// Colour, decided once per run: chalk's styles when colour is on, plain text otherwise.

/** The few styles the renderers use. */
export interface Style {
  bold(s: string): string;
  dim(s: string): string;
  cyan(s: string): string;
  green(s: string): string;
  yellow(s: string): string;
  red(s: string): string;
}

const identity = (s: string) => s;
export const PLAIN: Style = {
  bold: identity,
  dim: identity,
  cyan: identity,
  green: identity,
  yellow: identity,
  red: identity,
};

/** chalk is loaded only when colour is on; its level is forced because we already decided. */
export async function createStyle(color: boolean): Promise<Style> {
  if (!color) return PLAIN;
  const { Chalk } = await import('chalk');
  const c = new Chalk({ level: 1 });
  return {
    bold: (s) => c.bold(s),
    dim: (s) => c.dim(s),
    cyan: (s) => c.cyan(s),
    green: (s) => c.green(s),
    yellow: (s) => c.yellow(s),
    red: (s) => c.red(s),
  };
}
