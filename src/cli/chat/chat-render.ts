// What `agents chat` prints besides the conversation itself (which goes through the same renderers as
// `show` and `tail`): the session it resumes, the person's own message as sent, /help, one-line notes.
import type { Message, Session } from '../../core/api/types.js';
import type { Style } from '../output/style.js';
import { line, renderEntry, serviceText, type TextMode } from '../output/render-conversation.js';
import { escapeForLine, neutralize } from '../../util/text.js';
import { localTime } from '../output/time.js';
import { KEY_HELP, SLASH_HELP } from './slash.js';

/** The heading of a resumed session: title, id, web address. */
export function renderResumed(session: Session, style: Style): string {
  const title = neutralize(session.title || '(untitled)');
  return [
    `${style.cyan('↻')} ${style.bold(title)}`,
    `  id   ${session.id}`,
    `  web  ${neutralize(session.session_html_url)}`,
  ].join('\n');
}

/** What the person just sent, labelled as `show` labels it. */
export function renderSent(text: string, sessionId: string, mode: TextMode): string {
  const now = new Date().toISOString();
  const message: Message = {
    id: '',
    chat_id: sessionId,
    chat_thread_id: null,
    task_id: '',
    role: 'user',
    type: 'message',
    message: text,
    ts: null,
    created_at: now,
    updated_at: now,
  };
  return renderEntry({ kind: 'user', message }, mode, true);
}

/** /help: the commands and the keys, two columns. */
export function renderHelp(style: Style): string {
  const rows = (list: readonly (readonly [string, string])[]) => {
    const w = Math.max(...list.map(([k]) => k.length));
    return list.map(([k, v]) => `  ${style.cyan(k.padEnd(w))}  ${v}`);
  };
  return (
    [style.bold('Commands'), ...rows(SLASH_HELP), style.bold('Keys'), ...rows(KEY_HELP)].join('\n') + '\n'
  );
}

/** A note of the chat's own (dim), one line per line given; text the person typed is escaped. */
export function renderNote(text: string, style: Style): string {
  const lines = text.split('\n').map((l) => style.dim(escapeForLine(l)));
  return `${lines.join('\n')}\n`;
}

/** /plan: the latest plan (markdown), labelled like a message. */
export function renderPlan(text: string, at: string, mode: TextMode): string {
  const when = mode.time ? localTime(at, mode.time) : at;
  return `${mode.style.bold('plan')}${mode.style.dim(` · ${when}`)}\n${line(serviceText(text, mode))}`;
}
