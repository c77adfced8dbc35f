import {
  latestTurnState,
  pagerCommand,
  pagerEnv,
  type readSession,
  timeFormat,
} from '../../../core/index.js';
import type { Handlers, Printer } from '../../output/printer.js';
import { renderSession, renderSessionCard } from '../../output/render.js';
import { renderConversation, type TextMode } from '../../output/render-conversation.js';
import { screenLines } from '../../output/screen.js';
import { supportsHyperlinks } from '../../output/terminal.js';
import { jsonText } from '../../../util/text.js';

type SessionView = Awaited<ReturnType<typeof readSession>>;

/** A session and its conversation as read; `agent` when known; `page`: whether a terminal may page it. */
export type ShowItem = SessionView & {
  kind: 'conversation';
  agent?: string;
  verbose?: boolean;
  page: boolean;
};

function segmentsOf(p: Printer, item: ShowItem, mode: TextMode) {
  const notices = { tty: p.ctx.caps.stderrIsTTY, style: p.ctx.styleErr };
  return renderConversation(item.conversation, item.threads, mode, notices, item.running);
}

function printConversation(p: Printer, header: string, segments: ReturnType<typeof segmentsOf>): void {
  p.out(`${header}\n`);
  for (const s of segments) {
    if (s.to === 'out') p.out(s.text);
    else if (!p.ctx.globals.quiet) p.ctx.stderr.write(s.text);
  }
}

/** On a terminal, through the pager when taller than the screen (notices then go with it). */
async function showOnTerminal(p: Printer, item: ShowItem): Promise<void> {
  const { ctx } = p;
  const render = (mode: TextMode) => {
    const header = renderSessionCard(item.session, {
      agent: item.agent,
      state: latestTurnState(item.conversation.entries.map((e) => e.message)),
      style: mode.style,
      time: mode.time ?? timeFormat(ctx.io.env),
      verbose: item.verbose,
    });
    return { header, segments: segmentsOf(p, item, mode) };
  };
  const mode: TextMode = { ...p.text, verbose: item.verbose };
  const pager = item.page ? pagerCommand(ctx.io.env) : undefined;
  const rows = ctx.io.stdout.rows ?? 0;
  if (pager !== undefined && ctx.io.spawner !== undefined && rows > 0) {
    const quiet = ctx.globals.quiet === true;
    const whole = (r: ReturnType<typeof render>) =>
      `${r.header}\n${r.segments.map((s) => (s.to === 'out' || !quiet ? s.text : '')).join('')}`;
    let text = whole(render(mode));
    if (screenLines(text, p.text.columns ?? 80) > rows) {
      // A pager may not pass hyperlinks through: the links are written out instead.
      if (supportsHyperlinks(ctx.io.env))
        text = whole(render({ ...mode, markdown: await p.renderer(false) }));
      const code = await ctx.io.spawner.pager(pager, text, pagerEnv(ctx.io.env));
      // 127: the shell found no such pager; the text is printed as it would have been without one.
      if (code !== 127) return;
      ctx.log.warn(`the pager "${pager}" was not found (AGENTS_PAGER, PAGER); printing instead`);
    }
  }
  const { header, segments } = render(mode);
  printConversation(p, header, segments);
}

export const print: Handlers<ShowItem> = {
  async conversation(p, item) {
    await p.useMarkdown();
    if (p.json) {
      // One write, once everything is known: stdout never holds half a document.
      const c = item.conversation;
      const list = (ms: readonly { message: object }[]) =>
        ms.map((e) => `\n${jsonText(e.message)}`).join(',') + (ms.length ? '\n' : '');
      p.out(
        `{"session":${jsonText(item.session)},"messages":[${list(c.entries)}],"notices":[${list(c.notices)}],"running_thread_id":${jsonText(item.running ?? null)}}\n`,
      );
    } else if (p.text.tty) {
      await showOnTerminal(p, item);
    } else {
      printConversation(p, renderSession(item.session, p.text.style), segmentsOf(p, item, p.text));
    }
    if (item.truncatedTo !== undefined) {
      const n = item.truncatedTo;
      const which = n === 1 ? 'the newest message' : `the newest ${n} messages`;
      p.ctx.log.hint(`Showing ${which}; --all shows every one, --limit N more or fewer.`);
    }
  },
};
