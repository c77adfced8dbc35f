// The status line of `agents chat`: who works, for how long, the latest thing it did (or that the service
// fails and the chat keeps trying). Pure, and cut to the terminal so it never wraps into the conversation.
import type { Entry } from '../../core/index.js';
import type { Style } from '../output/style.js';
import { formatDuration } from '../../util/duration.js';
import { flatten, neutralize } from '../../util/text.js';
import { cut, width } from '../../util/width.js';

/** 'new': no session yet (the first message creates it); 'idle': no turn running, or not known to be. */
export type Phase = 'new' | 'idle' | 'sending' | 'running';

export interface StatusInfo {
  /** The agent's name, or the session's title when the agent is not known. */
  label: string;
  phase: Phase;
  /** When the running turn started (epoch ms). */
  since?: number;
  /** How long the last turn took, once it ended. */
  tookMs?: number;
  activity?: string;
  /** A failing service, while the chat keeps polling. */
  warning?: string;
  /** The interrupt question is waiting for its key. */
  confirming?: boolean;
}

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

/** The question asked before a follow-up interrupts a running turn. */
export const INTERRUPT_QUESTION = 'Interrupt the running turn and send? [y/N]';

/** What an entry says about the agent's latest activity, on one line. */
export function activityOf(e: Entry): string | undefined {
  const one = (s: string) => neutralize(flatten(s, 200));
  if (e.kind === 'tool') return one(e.tool ? `⚙ ${e.tool.name} ${e.tool.input}` : `⚙ ${e.message.message}`);
  if (e.kind === 'reply') return `✎ ${one(e.message.message)}`;
  if (e.kind === 'final') return 'final reply';
  return undefined;
}

/** The status line at most `columns - 1` wide, styled after it is cut (no escape sequence cut in half). */
export function statusLine(
  s: StatusInfo,
  now: number,
  frame: number,
  columns: number | undefined,
  style: Style,
): string {
  const room = Math.max(12, (columns && columns > 0 ? columns : 80) - 1);
  const fit = (text: string) => cut(text, room);
  if (s.confirming) return style.yellow(fit(INTERRUPT_QUESTION));
  const label = neutralize(flatten(s.label, 30));
  switch (s.phase) {
    case 'new':
      return style.dim(fit(`${label} · new session · Enter sends · /help`));
    case 'idle': {
      const done = s.tookMs === undefined ? 'ready' : `done in ${formatDuration(s.tookMs)}`;
      return style.dim(fit(`${label} · ${done} · /help`));
    }
    case 'sending':
      return fit(`${FRAMES[frame % FRAMES.length]} ${label} · sending…`);
    case 'running': {
      const seconds = Math.floor(Math.max(0, now - (s.since ?? now)) / 1000);
      const elapsed = seconds === 0 ? '0s' : formatDuration(seconds * 1000);
      const head = fit(`${FRAMES[frame % FRAMES.length]} ${label} · ${elapsed} · `);
      const left = room - width(head);
      if (left < 2) return head.trimEnd();
      if (s.warning !== undefined) return `${head}${style.yellow(cut(`⚠ ${s.warning}`, left))}`;
      return `${head}${style.dim(cut(s.activity ?? 'working', left))}`;
    }
  }
}
