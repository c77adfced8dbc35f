// Decides, once per run, what the terminal can take: prompts, a spinner, colour.

/** What this run may do on the terminal. Derived once from the streams, the environment and the flags. */
export interface TerminalCaps {
  /** Prompts are allowed: stdin and stdout are terminals and CI is not set. */
  interactive: boolean;
  /** stderr is a terminal (spinner, human summaries). */
  stderrIsTTY: boolean;
  /** stdout is a terminal (service text must be neutralised before it is shown). */
  stdoutIsTTY: boolean;
  /** Colour on stderr/stdout. */
  color: boolean;
  /** A spinner may run on stderr. */
  spinner: boolean;
}

export interface TerminalInputs {
  env: NodeJS.ProcessEnv;
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
  /** stderr's width in columns; 0 or undefined when the terminal does not report one. */
  stderrColumns?: number;
  /** `false` when `--no-color` was given. */
  colorFlag: boolean;
  quiet: boolean;
}

function truthy(value: string | undefined): boolean {
  return value !== undefined && value !== '' && value !== '0' && value.toLowerCase() !== 'false';
}

/** Pure: the capabilities for these inputs. NO_COLOR beats FORCE_COLOR; --no-color beats both. */
export function detectTerminal(i: TerminalInputs): TerminalCaps {
  const ci = truthy(i.env.CI);
  let color = i.stderrIsTTY && i.env.TERM !== 'dumb';
  if (i.env.FORCE_COLOR !== undefined) color = i.env.FORCE_COLOR !== '0' && i.env.FORCE_COLOR !== 'false';
  if (i.env.NO_COLOR !== undefined && i.env.NO_COLOR !== '') color = false;
  if (!i.colorFlag) color = false;
  return {
    interactive: i.stdinIsTTY && i.stdoutIsTTY && !ci,
    stderrIsTTY: i.stderrIsTTY,
    stdoutIsTTY: i.stdoutIsTTY,
    color,
    // ora divides by the width to count the lines it must clear: a terminal that reports 0 columns (a
    // pty nobody sized, e.g. `script` without a terminal of its own) would make it clear lines forever.
    spinner: i.stderrIsTTY && !ci && !i.quiet && i.env.TERM !== 'dumb' && (i.stderrColumns ?? 0) > 0,
  };
}
