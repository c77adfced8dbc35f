// Progress while a command waits: a spinner on an interactive terminal, lines elsewhere, none with --quiet.
import type { Ora } from 'ora';
import { type LineOptions, lineProgress, type OutStream, type Progress } from '../../core/index.js';
import { formatDuration } from '../../util/duration.js';
import { cut } from '../../util/width.js';
import type { Stderr } from './stderr.js';
import type { TerminalCaps } from './terminal.js';

const NONE: Progress = { start: () => Promise.resolve(), activity: () => undefined, stop: () => undefined };

export type SpinnerOptions = { stream: OutStream; stderr: Stderr; color: boolean };

/** A spinner on stderr (ora, loaded only then): one line cut to the width, so a resize erases no line above. */
function spinnerProgress(o: SpinnerOptions): Progress {
  let spinner: Ora | undefined;
  let tick: NodeJS.Timeout | undefined;
  let label = '';
  let latest = '';
  let started = 0;
  // ora's frame and a space come before the text; the last column stays free so that no line wraps.
  const text = () => {
    const line = `${label} ${formatDuration(Date.now() - started)}${latest ? ` · ${latest}` : ''}`;
    return cut(line, Math.max(10, (o.stream.columns ?? 80) - 3));
  };
  const redraw = () => {
    if (spinner?.isSpinning) spinner.text = text();
  };
  // After a resize, ora would clear as many lines as the old width made of its text: clear the one line
  // it really is now, then draw the text cut to the new width.
  const onResize = () => {
    if (!spinner?.isSpinning) return;
    o.stream.write('\r\u001b[2K');
    spinner.text = text();
    spinner.render();
  };
  return {
    async start(l) {
      label = l;
      latest = '';
      started = Date.now();
      if (spinner?.isSpinning) return redraw();
      const { default: ora } = await import('ora');
      // discardStdin: false, or ora swallows the user's Ctrl-C handling and any piped input.
      const options = { text: text(), stream: o.stream, discardStdin: false, isEnabled: true };
      spinner = ora({ ...options, color: o.color ? 'cyan' : false }).start();
      o.stderr.spinner = spinner;
      o.stream.on?.('resize', onResize);
      tick = setInterval(redraw, 1000);
      tick.unref();
    },
    activity(t) {
      latest = t;
      redraw();
    },
    stop() {
      clearInterval(tick);
      o.stream.off?.('resize', onResize);
      if (spinner?.isSpinning) spinner.stop();
      o.stderr.spinner = undefined;
    },
  };
}

export function createProgress(
  caps: TerminalCaps,
  quiet: boolean,
  spinner: SpinnerOptions,
  lines: LineOptions,
): Progress {
  if (quiet) return NONE;
  return caps.spinner ? spinnerProgress(spinner) : lineProgress(lines);
}
