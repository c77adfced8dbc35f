// The one presenter: what commands return becomes JSON, terminal text or plain text on stdout, and
// summaries and hints on stderr. Modes: --json (one JSON document, or NDJSON for streams); a terminal
// (labels, colour, local times, markdown, service text neutralised; `show` through the pager when taller
// than the screen); a pipe (the service's text byte for byte).
import { appendFile } from 'node:fs/promises';
import type { IO } from '../io.js';
import type { TerminalCaps } from './terminal.js';
import type { Style } from './style.js';
import type { Logger, Stderr } from './stderr.js';
import type { Progress } from './progress.js';
import { latestTurnState } from '../conversation/turn-state.js';
import { pagerCommand, pagerEnv, timeFormat } from '../config/env.js';
import { openInBrowser } from './browser.js';
import type { Item, Result } from './items.js';
import type { RenderMarkdown } from './markdown.js';
import { notify } from './notify.js';
import { escapeForLine } from '../util/text.js';
import { renderReplyHeader } from './render-wait.js';
import { renderConfigList } from './render-config.js';
import { renderChatEnd, renderCreated, renderNextSteps, renderSession, renderSessionCard } from './render.js';
import {
  bodyText,
  line,
  renderConversation,
  renderEntry,
  renderNotice,
  serviceText,
  type TextMode,
} from './render-conversation.js';
import { renderSessions, renderSessionsPlain, sessionJson } from './render-sessions.js';
import { supportsHyperlinks } from './terminal.js';
import { screenLines } from './screen.js';

function isItem(result: Result): result is Item {
  return typeof result === 'object' && result !== null && 'kind' in result;
}

const json = (value: unknown) => `${JSON.stringify(value)}\n`;

/** What the presenter needs of the run (the Context of context.ts, which is built above this layer). */
export interface PresentContext {
  io: IO;
  globals: { json?: boolean; quiet?: boolean };
  caps: TerminalCaps;
  styleOut: Style;
  styleErr: Style;
  stderr: Stderr;
  log: Logger;
  progress: Progress;
}

/** Prints what a command returned, item by item, as it comes. */
export async function present(ctx: PresentContext, result: Result): Promise<void> {
  if (result === undefined) return;
  const p = new Presenter(ctx);
  if (isItem(result)) await p.write(result);
  else for await (const item of result) await p.write(item);
}

/** Whether an item shows message text (markdown on a terminal). */
function showsMessages(item: Item): boolean {
  switch (item.kind) {
    case 'reply':
    case 'conversation':
      return true;
    case 'entry':
      return ['user', 'reply', 'final'].includes(item.entry.kind);
    case 'artifact':
      return item.what === 'plan' && item.written === undefined;
    default:
      return false;
  }
}

class Presenter {
  private readonly json: boolean;
  private readonly text: TextMode;
  /** The markdown renderers, with and without hyperlinks (a pager gets none), loaded on first use. */
  private readonly markdown = new Map<boolean, Promise<RenderMarkdown>>();

  constructor(private readonly ctx: PresentContext) {
    this.json = ctx.globals.json === true;
    const tty = ctx.caps.stdoutIsTTY;
    this.text = {
      tty,
      style: ctx.styleOut,
      columns: ctx.caps.columns,
      ...(tty ? { time: timeFormat(ctx.io.env) } : {}),
    };
  }

  /** The terminal's markdown renderer (loaded once; a run that shows no message never loads it). */
  private renderer(hyperlinks: boolean): Promise<RenderMarkdown> {
    let r = this.markdown.get(hyperlinks);
    if (r === undefined) {
      r = import('./markdown.js').then(({ loadMarkdown }) =>
        loadMarkdown({ columns: this.ctx.caps.columns, color: this.ctx.caps.colorOut, hyperlinks }),
      );
      this.markdown.set(hyperlinks, r);
    }
    return r;
  }

  /** Data on stdout; a spinner on the same terminal is put back under it. */
  private out(text: string): void {
    this.ctx.stderr.around(() => this.ctx.io.stdout.write(text));
  }

  /** A system notice: never data, so never on stdout; a line on stderr (silenced by --quiet). */
  private notice(m: Parameters<typeof renderNotice>[0]): void {
    this.ctx.log.info(renderNotice(m, { tty: this.ctx.caps.stderrIsTTY, style: this.ctx.styleErr }));
  }

  async write(item: Item): Promise<void> {
    const { ctx } = this;
    if (this.text.tty && !this.json && this.text.markdown === undefined && showsMessages(item)) {
      this.text.markdown = await this.renderer(supportsHyperlinks(ctx.io.env));
    }
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
        // With a result: the final Message's fields (as before) and the result's, one object.
        if (this.json) this.out(json(item.result ? { ...item.message, ...item.result } : item.message));
        // Piped, the reply byte for byte (`> answer.md` holds exactly what the agent wrote).
        else this.out(this.text.tty ? bodyText(text, this.text) : text);
        return;
      }
      case 'wait-result': {
        ctx.progress.stop();
        if (this.json) this.out(json(item.result));
        return;
      }
      case 'github': {
        try {
          await appendFile(item.output, item.text);
        } catch (err) {
          ctx.log.warn(`could not write ${item.output}: ${err instanceof Error ? err.message : String(err)}`);
        }
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
          // The conversation (the service's copy of each final left out), notices apart; one write, once
          // everything is known: stdout never holds half a document.
          const c = item.conversation;
          const list = (ms: readonly { message: object }[]) =>
            ms.map((e) => `\n${JSON.stringify(e.message)}`).join(',') + (ms.length ? '\n' : '');
          this.out(
            `{"session":${JSON.stringify(item.session)},"messages":[${list(c.entries)}],"notices":[${list(c.notices)}],"running_thread_id":${JSON.stringify(item.running ?? null)}}\n`,
          );
        } else if (this.text.tty) {
          await this.showOnTerminal(item);
        } else {
          const segments = renderConversation(
            item.conversation,
            item.threads,
            this.text,
            { tty: ctx.caps.stderrIsTTY, style: ctx.styleErr },
            item.running,
          );
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
          // A pipe gets the bytes as stored; a terminal the text made harmless (a plan as markdown).
          if (this.text.tty) {
            const t = bytes.toString('utf8');
            this.out(item.what === 'plan' ? bodyText(t, this.text) : line(serviceText(t, this.text)));
          } else ctx.io.stdout.write(bytes);
        }
        if (written !== undefined) ctx.log.info(`Wrote ${written} (${bytes.length} bytes)`);
        return;
      }
      case 'sessions': {
        if (this.json) this.out(`${JSON.stringify(item.sessions.map(sessionJson), null, 2)}\n`);
        else if (!this.text.tty) this.out(renderSessionsPlain(item.sessions));
        else if (item.sessions.length === 0) {
          ctx.log.info(`No sessions recorded for profile ${item.profile} yet.`);
          ctx.log.hint('agents create and agents send record the sessions they start or continue here.');
        } else {
          const time = this.text.time ?? timeFormat(ctx.io.env);
          this.out(
            renderSessions(item.sessions, { style: this.text.style, time, columns: this.text.columns }),
          );
        }
        return;
      }
      case 'browse':
        await this.browse(item.url);
        return;
      case 'notify':
        notify(ctx, item.notification);
        return;
      case 'next-steps': {
        // A hint is dimmed as a whole (each line once); the lines come plain.
        if (ctx.caps.stderrIsTTY) ctx.log.hint(renderNextSteps(item.sessionId, item.finished));
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
      case 'error':
        ctx.stderr.write(
          `error: ${escapeForLine(item.text)}\n${item.hint ? `hint: ${escapeForLine(item.hint)}\n` : ''}`,
        );
        return;
    }
  }

  /**
   * `show` on a terminal: the compact header and the conversation, through the pager when it is taller
   * than the screen (notices then go with it, where they came: stderr would be drawn over the pager).
   */
  private async showOnTerminal(item: Extract<Item, { kind: 'conversation' }>): Promise<void> {
    const { ctx } = this;
    const quiet = ctx.globals.quiet === true;
    const render = (mode: TextMode) => {
      const header = renderSessionCard(item.session, {
        agent: item.agent,
        state: latestTurnState(item.conversation.entries.map((e) => e.message)),
        style: mode.style,
        time: mode.time ?? timeFormat(ctx.io.env),
        verbose: item.verbose,
      });
      const noticeMode = { tty: ctx.caps.stderrIsTTY, style: ctx.styleErr };
      const segments = renderConversation(item.conversation, item.threads, mode, noticeMode, item.running);
      return { header, segments };
    };
    const mode: TextMode = { ...this.text, verbose: item.verbose };
    const pager = item.page ? pagerCommand(ctx.io.env) : undefined;
    const rows = ctx.io.stdout.rows ?? 0;
    if (pager !== undefined && ctx.io.spawner !== undefined && rows > 0) {
      const whole = (r: ReturnType<typeof render>) =>
        `${r.header}\n${r.segments.map((s) => (s.to === 'out' || !quiet ? s.text : '')).join('')}`;
      let text = whole(render(mode));
      if (screenLines(text, this.text.columns ?? 80) > rows) {
        // A pager may not pass hyperlinks through: the links are written out instead.
        if (supportsHyperlinks(ctx.io.env))
          text = whole(render({ ...mode, markdown: await this.renderer(false) }));
        const code = await ctx.io.spawner.pager(pager, text, pagerEnv(ctx.io.env));
        // 127: the shell found no such pager; the text is printed as it would have been without one.
        if (code !== 127) return;
        ctx.log.warn(`the pager "${pager}" was not found (AGENTS_PAGER, PAGER); printing instead`);
      }
    }
    const { header, segments } = render(mode);
    this.out(`${header}\n`);
    for (const s of segments) {
      if (s.to === 'out') this.out(s.text);
      else if (!quiet) ctx.stderr.write(s.text);
    }
  }

  /** A dashboard address: opened in the browser where one can start, else printed on stdout. */
  private async browse(url: string): Promise<void> {
    const { ctx } = this;
    const { opened, why, error } = await openInBrowser(ctx.io, url);
    if (error !== undefined) ctx.log.warn(`could not start a browser: ${error}`);
    const shown = this.text.tty ? serviceText(url, this.text) : url;
    if (this.json) this.out(json({ url, opened }));
    else if (!opened) this.out(`${shown}\n`);
    if (opened) ctx.log.info(`Opening ${shown} in your browser.`);
    else if (why !== undefined && ctx.caps.stderrIsTTY)
      ctx.log.hint(`No browser opened here (${why}): the address is above.`);
  }
}
