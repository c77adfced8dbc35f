// The presenter's handlers for what the other commands return: a session made or a message sent, a
// conversation (show), artifacts, the sessions of this machine, config values, addresses, notes.
import { timeFormat } from '../../core/config/env.js';
import type { SessionItem } from '../../core/events/session-items.js';
import type { Item } from './items.js';
import { jsonLine, type Handlers } from './printer.js';
import { renderConfigList } from './render-config.js';
import { bodyText, line, renderConversation, serviceText } from './render-conversation.js';
import { renderSessions, renderSessionsPlain, sessionJson } from './render-sessions.js';
import { renderAttempts, renderChatEnd, renderCreated, renderSession } from './render.js';
import { jsonText } from '../../util/text.js';
import { historyName } from '../../core/state/history.js';

export const COMMAND_HANDLERS: Handlers<
  Exclude<Item['kind'], SessionItem['kind'] | 'checkout' | 'diff' | 'budget'>
> = {
  'session-created'(p, { session, waiting }) {
    if (p.ctx.caps.stderrIsTTY) p.ctx.log.info(renderCreated(session, p.ctx.styleErr));
    if (!waiting) p.out(p.json ? jsonLine(session) : `${session.id}\n`);
  },
  'attempts-created'(p, { group, attempts, of, waiting }) {
    if (p.json) {
      if (!waiting) p.out(`${jsonText(attempts.map((a) => a.session))}\n`);
    } else if (p.text.tty && !waiting) {
      p.out(renderAttempts(group, attempts, p.text.style));
    } else if (!waiting) {
      // Each id on a line of its own: what `agents wait` reads; the group on stderr.
      p.out(attempts.map((a) => `${a.session.id}\n`).join(''));
    }
    p.ctx.log.info(`session group ${group}: ${attempts.length} of ${of} attempts created`);
    if (p.ctx.caps.stderrIsTTY && !waiting && attempts.length > 0) {
      p.ctx.log.hint(`Wait for them with: agents wait ${group}\nCompare: agents diff ${group} --attempt K`);
    }
  },
  'message-sent'(p, { sessionId, sent, waiting }) {
    // <session>/<thread>: what `agents wait` and --thread read (the session alone if no thread came back).
    const thread = sent.chat_thread_id;
    const ref = thread ? `${sessionId}/${thread}` : sessionId;
    if (!waiting) p.out(p.json ? jsonLine(sent) : `${ref}\n`);
  },
  async conversation(p, item) {
    const { ctx } = p;
    if (p.json) {
      // The conversation (the service's copy of each final left out), notices apart; one write, once
      // everything is known: stdout never holds half a document.
      const c = item.conversation;
      const list = (ms: readonly { message: object }[]) =>
        ms.map((e) => `\n${jsonText(e.message)}`).join(',') + (ms.length ? '\n' : '');
      p.out(
        `{"session":${jsonText(item.session)},"messages":[${list(c.entries)}],"notices":[${list(c.notices)}],"running_thread_id":${jsonText(item.running ?? null)}}\n`,
      );
    } else if (p.text.tty) {
      await p.showOnTerminal(item);
    } else {
      const segments = renderConversation(
        item.conversation,
        item.threads,
        p.text,
        { tty: ctx.caps.stderrIsTTY, style: ctx.styleErr },
        item.running,
      );
      p.out(`${renderSession(item.session, p.text.style)}\n`);
      for (const s of segments) {
        if (s.to === 'out') p.out(s.text);
        else if (!ctx.globals.quiet) ctx.stderr.write(s.text);
      }
    }
    if (item.truncatedTo !== undefined) {
      const n = item.truncatedTo;
      const which = n === 1 ? 'the newest message' : `the newest ${n} messages`;
      ctx.log.hint(`Showing ${which}; --all shows every one, --limit N more or fewer.`);
    }
  },
  artifact(p, item) {
    const { artifact, bytes, written } = item;
    if (p.json) {
      // The record; a plan also with its text (markdown), which a script most likely wants.
      p.out(jsonLine(item.what === 'plan' ? { artifact, text: bytes.toString('utf8') } : artifact));
    } else if (written === undefined) {
      // A pipe gets the bytes as stored; a terminal the text made harmless (a plan as markdown).
      if (p.text.tty) {
        const t = bytes.toString('utf8');
        p.out(item.what === 'plan' ? bodyText(t, p.text) : line(serviceText(t, p.text)));
      } else p.ctx.io.stdout.write(bytes);
    }
    if (written !== undefined) p.ctx.log.info(`Wrote ${written} (${bytes.length} bytes)`);
  },
  sessions(p, { sessions, profile, baseUrl }) {
    const { ctx } = p;
    if (p.json) p.out(`${jsonText(sessions.map(sessionJson), 2)}\n`);
    else if (!p.text.tty) p.out(renderSessionsPlain(sessions));
    else if (sessions.length === 0) {
      ctx.log.info(`No sessions recorded ${historyName({ profile, baseUrl })} yet.`);
      ctx.log.hint('agents create and agents send record the sessions they start or continue here.');
    } else {
      const time = p.text.time ?? timeFormat(ctx.io.env);
      p.out(renderSessions(sessions, { style: p.text.style, time, columns: p.text.columns }));
    }
  },
  async browse(p, { url }) {
    await p.browse(url);
  },
  'chat-ended'(p, { sessionId }) {
    p.ctx.log.info(renderChatEnd(sessionId, p.ctx.styleErr));
  },
  'config-list'(p, { listing }) {
    p.out(p.json ? JSON.stringify(listing, null, 2) + '\n' : renderConfigList(listing));
  },
  'config-entry'(p, { entry: e }) {
    if (p.json) p.out(JSON.stringify(e, null, 2) + '\n');
    else if (e.value !== null) p.out(`${e.value}\n`);
    else if (e.store === 'keychain') p.ctx.log.info(`${e.key} is in the system keychain, and never shown`);
    else p.ctx.log.info(`${e.key} is not set`);
  },
  value(p, item) {
    if (p.json) p.out(jsonLine(item.json));
    else if (item.text !== undefined) p.out(`${item.text}\n`);
  },
  note(p, { text }) {
    p.ctx.log.info(text);
  },
};
