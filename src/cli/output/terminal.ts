// Decides, once per run, what the terminal can take: prompts, a spinner, colour.
import { type Env, truthy } from '../../core/index.js';

/** What this run may do on the terminal, derived once from the streams, the environment and the flags. */
export interface TerminalCaps {
  /** Prompts are allowed: stdin and stdout are terminals and CI is not set. */
  interactive: boolean;
  stderrIsTTY: boolean;
  /** stdout is a terminal: service text is neutralised and may be styled; a pipe gets it byte for byte. */
  stdoutIsTTY: boolean;
  colorOut: boolean;
  colorErr: boolean;
  /** A spinner (or status lines) may run on stderr. */
  spinner: boolean;
  ci: boolean;
  /** stdout's width (undefined on a pipe or when it reports none). */
  columns: number | undefined;
}

export interface TerminalInputs {
  env: Env;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** A width in columns; 0 or undefined when the terminal reports none. */
  stdoutColumns?: number;
  stderrColumns?: number;
  /** `false` when `--no-color` was given. */
  colorFlag: boolean;
  quiet: boolean;
}

/** Colour for a stream: a terminal's default, FORCE_COLOR on or off, NO_COLOR off, --no-color off beats all. */
function colour(isTTY: boolean, i: TerminalInputs): boolean {
  if (!i.colorFlag || i.env.NO_COLOR) return false;
  const forced = i.env.FORCE_COLOR;
  return forced !== undefined ? forced !== '0' && forced !== 'false' : isTTY && i.env.TERM !== 'dumb';
}

export function detectTerminal(i: TerminalInputs): TerminalCaps {
  const ci = truthy(i.env.CI);
  return {
    interactive: i.stdinIsTTY && i.stdoutIsTTY && !ci,
    stderrIsTTY: i.stderrIsTTY,
    stdoutIsTTY: i.stdoutIsTTY,
    // A pipe gets the service's text exactly: no styling, whatever FORCE_COLOR says.
    colorOut: i.stdoutIsTTY && colour(true, i),
    colorErr: colour(i.stderrIsTTY, i),
    // ora divides by the width to count the lines it must clear: a terminal that reports 0 columns (a
    // pty nobody sized, e.g. `script` without a terminal of its own) would make it clear lines forever.
    spinner: i.stderrIsTTY && !ci && !i.quiet && i.env.TERM !== 'dumb' && (i.stderrColumns ?? 0) > 0,
    ci,
    columns: i.stdoutIsTTY && (i.stdoutColumns ?? 0) > 0 ? i.stdoutColumns : undefined,
  };
}

/** Pure: OSC 8 hyperlinks where the terminal says it shows them (an unknown sequence could show as garbage). */
export function supportsHyperlinks(env: Env): boolean {
  if (env.FORCE_HYPERLINK) return truthy(env.FORCE_HYPERLINK);
  if (truthy(env.CI) || env.TMUX || env.STY) return false;
  if (['iTerm.app', 'WezTerm', 'vscode', 'ghostty'].includes(env.TERM_PROGRAM ?? '')) return true;
  if (['xterm-kitty', 'alacritty', 'foot', 'xterm-ghostty'].includes(env.TERM ?? '')) return true;
  if (Number(env.VTE_VERSION ?? 0) >= 5000) return true;
  return env.WT_SESSION !== undefined || env.KONSOLE_VERSION !== undefined;
}
