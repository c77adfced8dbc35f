// The one presenter: what commands return becomes JSON, terminal text or plain text on stdout, and
// summaries and hints on stderr. Modes: --json (one JSON document, or NDJSON for streams); a terminal
// (labels, colour, service text neutralised); a pipe (the service's text byte for byte).
import type { Context } from '../context.js';
import type { Item, Result } from './items.js';
import { renderConfigList } from './render-config.js';
import { renderChatEnd, renderCreated, renderNextSteps, renderSession } from './render.js';
import {
  line,
  renderConversation,
  renderEntry,
  renderNotice,
  serviceText,
  type TextMode,
} from './render-conversation.js';

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
    this.text = { tty: ctx.caps.stdoutIsTTY, style: ctx.styleOut, columns: ctx.caps.columns };
  }

  /** Data on stdout; a spinner on the same terminal is put back under it. */
  private out(text: string): void {
    this.ctx.stderr.around(() => this.ctx.io.stdout.write(text));
  }

  /** A system notice: never data, so never on stdout; a line on stderr (silenced by --quiet). */
  private notice(m: Parameters<typeof renderNotice>[0]): void {
    this.ctx.log.info(renderNotice(m, { tty: this.ctx.caps.stderrIsTTY, style: this.ctx.styleErr }));
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
        if (!item.waiting) this.out(this.json ? json(item.sent) : `${item.sent.chat_thread_id ?? ''}\n`);
        return;
      }
      case 'entry': {
        const { entry } = item;
        if (entry.kind === 'notice') this.notice(entry.message);
        else if (this.json) this.out(json(entry.message));
        else {
          const text = renderEntry({ ...entry, repeats: item.repeats }, this.text);
          if (text !== '') this.out(text);
        }
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
      case 'conversation': {
        if (this.json) {
          // The conversation (the service's copy of each final left out), notices apart; one write, once
          // everything is known: stdout never holds half a document.
          const c = item.conversation;
          const list = (ms: readonly { message: object }[]) =>
            ms.map((e) => `\n${JSON.stringify(e.message)}`).join(',') + (ms.length ? '\n' : '');
          this.out(
            `{"session":${JSON.stringify(item.session)},"messages":[${list(c.entries)}],"notices":[${list(c.notices)}]}\n`,
          );
        } else {
          const segments = renderConversation(item.conversation, item.threads, this.text, {
            tty: ctx.caps.stderrIsTTY,
            style: ctx.styleErr,
          });
          this.out(`${renderSession(item.session, this.text.style)}\n`);
          for (const s of segments) {
            if (s.to === 'out') this.out(s.text);
            else if (!ctx.globals.quiet) ctx.stderr.write(s.text);
          }
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
      case 'chat-ended':
        ctx.log.info(renderChatEnd(item.sessionId, ctx.styleErr));
        return;
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
    }
  }
}
