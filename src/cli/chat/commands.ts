// The slash commands of `agents chat` that read or keep something: /show, /open, /plan, /copy, /save.
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Context } from '../run/context.js';
import { openInBrowser } from '../output/browser.js';
import {
  type ApiClient,
  DEFAULT_SHOW_LIMIT,
  downloadArtifact,
  fileError,
  latestPlanRecord,
  type Message,
  readSession,
  type Session,
  toCliError,
} from '../../core/index.js';
import { renderSession } from '../output/render.js';
import { renderConversation, type TextMode } from '../output/render-conversation.js';
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
  readonly lastReply: Message | undefined;
  mode(): TextMode;
  note(text: string): void;
  /** A failure the chat carries on after. */
  warn(err: unknown, lead: string): void;
}

/** A one-line reason for an error shown in the chat (which carries on), and its hint. */
export function reason(err: unknown): { text: string; hint?: string } {
  const mapped = toCliError(err);
  return { text: mapped.message, hint: mapped.hint };
}

/** /show, /open, /plan: about the session, so only once there is one. */
export async function sessionCommand(
  host: CommandHost,
  c: Slash & { name: 'show' | 'open' | 'plan' },
): Promise<void> {
  const { ctx, terminal, sessionId } = host;
  if (sessionId === undefined) return host.note('no session yet: the first message starts it');
  const { client } = host;
  const o = { signal: ctx.signal };
  try {
    if (c.name === 'open') {
      // The dashboard in the browser where one can start; the address in the chat either way.
      const url = (host.session ?? (await client.getSession(sessionId, o))).session_html_url;
      const { opened, why, error } = await openInBrowser(ctx.io, url);
      const not = why ? ` (no browser here: ${why})` : error ? ` (the browser did not start: ${error})` : '';
      host.note(opened ? `opened in your browser: ${url}` : `${url}${not}`);
    } else if (c.name === 'show') {
      const item = await readSession(client, sessionId, { limit: DEFAULT_SHOW_LIMIT }, o);
      const mode = host.mode();
      terminal.print(`${renderSession(item.session, mode.style)}\n`, 'out');
      const noticeMode = { tty: true, style: ctx.styleErr };
      for (const s of renderConversation(item.conversation, item.threads, mode, noticeMode, item.running))
        terminal.print(s.text, s.to);
      if (item.truncatedTo !== undefined) host.note(`older messages: agents show ${sessionId} --all`);
    } else {
      const plan = await latestPlanRecord(client, sessionId, o);
      const { artifact, download } = await downloadArtifact(client, plan, o);
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
  if (reply === undefined) return host.note('no reply yet');
  const bytes = Buffer.byteLength(reply.message, 'utf8');
  if (c.name === 'copy') {
    const report = copyReport(clipboardSupport(ctx.io.env), bytes);
    if (report.send) host.terminal.control(osc52(reply.message));
    return host.note(report.text);
  }
  const path = resolve(c.file.replace(/^~(?=$|[\\/])/, ctx.io.runtime.homedir));
  try {
    await writeFile(path, reply.message);
    host.note(`wrote ${c.file} (${bytes} bytes)`);
  } catch (err) {
    host.warn(fileError('/save', c.file, 'write', err), 'not saved');
  }
}
