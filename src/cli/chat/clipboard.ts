// /copy: the last reply to the clipboard with OSC 52 (over ssh too). No terminal says whether it takes it,
// so the environment decides; when unknown it is sent and the person told what to check.
import type { Env } from '../../core/index.js';

export type ClipboardSupport = 'yes' | 'no' | 'unknown' | 'tmux';

// Terminals that take OSC 52 writes out of the box (TERM_PROGRAM, or a TERM of their own).
const KNOWN_PROGRAMS = new Set(['iTerm.app', 'WezTerm', 'ghostty', 'vscode', 'Tabby', 'rio', 'WarpTerminal']);
const KNOWN_TERMS = /^(xterm-kitty|alacritty|foot|wezterm|xterm-ghostty|contour)/;

/** What this environment says about clipboard writes. */
export function clipboardSupport(env: Env): ClipboardSupport {
  const term = env.TERM ?? '';
  if (term === 'dumb' || term === 'linux' || term === '') return 'no';
  // tmux takes them when its set-clipboard option is on (the default, `external`, drops them).
  if (env.TMUX) return 'tmux';
  // Terminal.app and VTE (GNOME Terminal, Tilix…) ignore them.
  if (env.TERM_PROGRAM === 'Apple_Terminal' || env.VTE_VERSION) return 'no';
  if (env.TERM_PROGRAM && KNOWN_PROGRAMS.has(env.TERM_PROGRAM)) return 'yes';
  if (env.WT_SESSION || env.KITTY_WINDOW_ID || KNOWN_TERMS.test(term)) return 'yes';
  return 'unknown';
}

/** Longest text sent: terminals cap OSC 52 (tmux and hterm near 100 kB of base64). */
export const CLIPBOARD_MAX_BYTES = 74_000;

export function osc52(text: string): string {
  return `\u001b]52;c;${Buffer.from(text, 'utf8').toString('base64')}\u0007`;
}

/** What /copy says, and whether it sends the reply's `bytes` bytes. */
export function copyReport(support: ClipboardSupport, bytes: number): { send: boolean; text: string } {
  if (bytes > CLIPBOARD_MAX_BYTES) {
    return { send: false, text: `the reply is too long for the clipboard (${bytes} bytes); use /save FILE` };
  }
  const text = {
    no: 'this terminal does not take clipboard writes (OSC 52); use /save FILE',
    yes: `copied the last reply (${bytes} bytes)`,
    tmux: `sent the last reply to the clipboard (${bytes} bytes); inside tmux it needs: set -g set-clipboard on`,
    unknown: `sent the last reply to the clipboard (${bytes} bytes, OSC 52); if nothing was copied, your terminal does not allow it: use /save FILE`,
  }[support];
  return { send: support !== 'no', text };
}
