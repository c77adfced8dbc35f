// The one presenter: what commands return becomes JSON, terminal text or plain text on stdout, and
// summaries and hints on stderr. Modes: --json (one JSON document, or NDJSON for streams); a terminal
// (labels, colour, service text neutralised); a pipe (the service's text byte for byte).
import type { Context } from '../context.js';
import type { Item, Result } from './items.js';
import { groupTurns } from '../conversation/turns.js';
import { escapeForLine } from '../util/text.js';
import { renderReplyHeader } from './render-wait.js';
import { renderConfigList } from './render-config.js';
import {
  line,
  renderCreated,
  renderMessage,
  renderNextSteps,
  renderSession,
  renderTurnHeading,
  serviceText,
  type TextMode,
} from './render.js';

function isItem(result: Result): result is Item {
  return typeof result === 'object' && result !== null && 'kind' in result;
}

const json = (value: unknown) => `${JSON.stringify(value)}\n`;

/** Prints what a command returned, item by item, as it comes. */
export async function present(ctx: Context, result: Result): Promise<void> {
  if (result === undefined) return;
  const p = new Presenter(ctx);
  if (isItem(result)) p.write(result);
  else for await (const item of result) p.write(item);
}

class Presenter {
  private readonly json: boolean;
  private readonly text: TextMode;

  constructor(private readonly ctx: Context) {
    this.json = ctx.globals.json === true;
    this.text = { tty: ctx.caps.stdoutIsTTY, style: ctx.styleOut };
  }

  /** Data on stdout; a spinner on the same terminal is put back under it. */
  private out(text: string): void {
    this.ctx.stderr.around(() => this.ctx.io.stdout.write(text));
  }

  /** A message's text as a follow or tail prints it. */
  private streamed(text: string): string {
    return this.text.tty ? text : line(text);
  }

  write(item: Item): void {
    const { ctx } = this;
    switch (item.kind) {
      case 'session-created': {
        if (ctx.caps.stderrIsTTY) ctx.log.info(renderCreated(item.session, ctx.styleErr));
        if (!item.waiting) this.out(this.json ? json(item.session) : `${item.session.id}\n`);
        return;
      }
      case 'message-sent': {
        // <session>/<thread>: what `agents wait` and --thread read (the session alone if no thread came back).
        const thread = item.sent.chat_thread_id;
        const ref = thread ? `${item.sessionId}/${thread}` : item.sessionId;
        if (!item.waiting) this.out(this.json ? json(item.sent) : `${ref}\n`);
        return;
      }
      case 'message': {
        const m = item.message;
        if (this.json) this.out(json(m));
        else this.out(this.streamed(this.text.tty ? renderMessage(m, this.text) : m.message));
        return;
      }
      case 'reply': {
        ctx.progress.stop();
        const text = item.message.message;
        if (this.json) this.out(json(item.message));
        // Piped, the reply byte for byte (`> answer.md` holds exactly what the agent wrote).
        else this.out(this.text.tty ? line(serviceText(text, this.text)) : text);
        return;
      }
      case 'wait-reply': {
        const { sessionId, threadId, message } = item;
        if (this.json) this.out(json({ session: sessionId, thread: threadId, message }));
        else if (this.text.tty) {
          const header = renderReplyHeader(sessionId, item.title, this.text.style, ctx.caps.columns);
          this.out(`${header}\n${line(serviceText(message.message, this.text))}`);
        } else this.out(`${message.message}\n`);
        return;
      }
      case 'conversation': {
        if (this.json) {
          // One write, once everything is known: stdout never holds half a document.
          const messages = item.messages.map((m) => `\n${JSON.stringify(m)}`).join(',');
          const end = item.messages.length ? '\n' : '';
          this.out(`{"session":${JSON.stringify(item.session)},"messages":[${messages}${end}]}\n`);
        } else {
          const style = this.text.style;
          let text = `${renderSession(item.session, style)}\n`;
          for (const turn of groupTurns(item.messages, item.threads)) {
            text += `${renderTurnHeading(turn.threadId, turn.number, style)}\n`;
            for (const m of turn.messages) text += renderMessage(m, this.text);
          }
          if (item.messages.length === 0) text += `\n${style.dim('(no messages)')}\n`;
          this.out(text);
        }
        if (item.truncatedTo !== undefined) {
          const n = item.truncatedTo;
          const which = n === 1 ? 'the newest message' : `the newest ${n} messages`;
          ctx.log.hint(`Showing ${which}; --all shows every one, --limit N more or fewer.`);
        }
        return;
      }
      case 'artifact': {
        const { artifact, bytes, written } = item;
        if (this.json) {
          // The record; a plan also with its text (markdown), which a script most likely wants.
          this.out(json(item.what === 'plan' ? { artifact, text: bytes.toString('utf8') } : artifact));
        } else if (written === undefined) {
          // A pipe gets the bytes as stored; a terminal the text made harmless.
          if (this.text.tty) this.out(line(serviceText(bytes.toString('utf8'), this.text)));
          else ctx.io.stdout.write(bytes);
        }
        if (written !== undefined) ctx.log.info(`Wrote ${written} (${bytes.length} bytes)`);
        return;
      }
      case 'next-steps': {
        if (ctx.caps.stderrIsTTY) ctx.log.hint(renderNextSteps(item.sessionId, item.finished, ctx.styleErr));
        return;
      }
      case 'config-list':
        this.out(this.json ? JSON.stringify(item.listing, null, 2) + '\n' : renderConfigList(item.listing));
        return;
      case 'config-entry': {
        const e = item.entry;
        if (this.json) this.out(JSON.stringify(e, null, 2) + '\n');
        else if (e.value !== null) this.out(`${e.value}\n`);
        else ctx.log.info(`${e.key} is not set`);
        return;
      }
      case 'value':
        if (this.json) this.out(json(item.json));
        else if (item.text !== undefined) this.out(`${item.text}\n`);
        return;
      case 'note':
        ctx.log.info(item.text);
        return;
      case 'warning':
        ctx.log.warn(item.text);
        return;
      case 'error':
        ctx.stderr.write(
          `error: ${escapeForLine(item.text)}\n${item.hint ? `hint: ${escapeForLine(item.hint)}\n` : ''}`,
        );
        return;
    }
  }
}
