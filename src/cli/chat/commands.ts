// The slash commands of `agents chat` that read or keep something: /show, /open, /plan, /copy, /save.
// (/new, /help and /quit change the chat itself: session.ts.)
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Context } from '../run/context.js';
import { openInBrowser } from '../output/browser.js';
import type { ApiClient } from '../../core/api/client.js';
import { isHttpError } from '../../core/api/errors.js';
import type { Message, Session } from '../../core/api/types.js';
import { CliError, fromHttpError } from '../../core/errors/cli-error.js';
import { renderSession } from '../output/render.js';
import { renderConversation, type TextMode } from '../output/render-conversation.js';
import { fileError } from '../../core/errors/file-errors.js';
import { DEFAULT_SHOW_LIMIT, readSession } from '../../core/sessions/read-session.js';
import { downloadArtifact, latestPlanRecord } from '../../core/sessions/artifacts.js';
import { clipboardSupport, copyReport, osc52 } from './clipboard.js';
import { renderPlan } from './chat-render.js';
import type { Slash } from './slash.js';
import type { ChatTerminal } from './chat-terminal.js';

/** What the commands need of the chat. */
export interface CommandHost {
  readonly ctx: Context;
  readonly client: ApiClient;
  readonly terminal: ChatTerminal;
  readonly sessionId: string | undefined;
  /** The session, when it has been read. */
  readonly session: Session | undefined;
  /** The reply /copy and /save take. */
  readonly lastReply: Message | undefined;
  /** How the conversation is printed now (the terminal's width). */
  mode(): TextMode;
  /** A dim line of the chat's own. */
  note(text: string): void;
  /** A failure the chat carries on after. */
  warn(err: unknown, lead: string): void;
}

/** A one-line reason for an error shown in the chat (which carries on), and its hint. */
export function reason(err: unknown): { text: string; hint?: string } {
  if (isHttpError(err)) {
    const mapped = fromHttpError(err);
    return { text: mapped.message, hint: mapped.hint };
  }
  if (err instanceof CliError) return { text: err.message, hint: err.hint };
  return { text: err instanceof Error ? err.message : String(err) };
}

/** /open: the dashboard in the browser where one can start; the address in the chat either way. */
async function browse(host: CommandHost, url: string): Promise<void> {
  const { opened, why, error } = await openInBrowser(host.ctx.io, url);
  if (opened) host.note(`opened in your browser: ${url}`);
  else
    host.note(
      `${url}${why ? ` (no browser here: ${why})` : error ? ` (the browser did not start: ${error})` : ''}`,
    );
}

/** /show, /open, /plan: about the session, so only once there is one. */
export async function sessionCommand(
  host: CommandHost,
  c: Slash & { name: 'show' | 'open' | 'plan' },
): Promise<void> {
  const { ctx, terminal, sessionId } = host;
  if (sessionId === undefined) {
    host.note('no session yet: the first message starts it');
    return;
  }
  const { client } = host;
  const o = { signal: ctx.signal };
  try {
    if (c.name === 'open') {
      const session = host.session ?? (await host.client.getSession(sessionId, { signal: ctx.signal }));
      await browse(host, session.session_html_url);
    } else if (c.name === 'show') {
      const item = await readSession(client, sessionId, { limit: DEFAULT_SHOW_LIMIT }, o);
      const mode = host.mode();
      terminal.print(`${renderSession(item.session, mode.style)}\n`, 'out');
      const noticeMode = { tty: true, style: ctx.styleErr };
      for (const s of renderConversation(item.conversation, item.threads, mode, noticeMode, item.running)) {
        terminal.print(s.text, s.to);
      }
      if (item.truncatedTo !== undefined) host.note(`older messages: agents show ${sessionId} --all`);
    } else {
      const { artifact, download } = await downloadArtifact(
        client,
        await latestPlanRecord(client, sessionId, o),
        o,
      );
      terminal.print(renderPlan(download.bytes.toString('utf8'), artifact.created_at, host.mode()), 'out');
    }
  } catch (err) {
    if (ctx.signal.aborted) return;
    host.warn(err, `/${c.name}`);
  }
}

/** /copy (OSC 52) and /save FILE: the last reply. */
export async function keepReply(host: CommandHost, c: Slash & { name: 'copy' | 'save' }): Promise<void> {
  const { ctx } = host;
  const reply = host.lastReply;
  if (reply === undefined) {
    host.note('no reply yet');
    return;
  }
  const bytes = Buffer.byteLength(reply.message, 'utf8');
  if (c.name === 'copy') {
    const report = copyReport(clipboardSupport(ctx.io.env), bytes);
    if (report.send) host.terminal.control(osc52(reply.message));
    host.note(report.text);
    return;
  }
  const path = resolve(c.file.replace(/^~(?=$|[\\/])/, ctx.io.runtime.homedir));
  try {
    await writeFile(path, reply.message);
    host.note(`wrote ${c.file} (${bytes} bytes)`);
  } catch (err) {
    host.warn(fileError('/save', c.file, 'write', err), 'not saved');
  }
}
