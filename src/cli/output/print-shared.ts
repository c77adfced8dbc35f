// The items several commands yield, and how each prints (a command's own are in its folder's items.ts).
import { type Artifact, historyName, type KnownSession, sessionJson, timeFormat } from '../../core/index.js';
import { openInBrowser } from './browser.js';
import { jsonLine, type Handlers } from './printer.js';
import { bodyText, line, serviceText } from './render-conversation.js';
import { renderSessions, renderSessionsPlain } from './render-sessions.js';
import { jsonText } from '../../util/text.js';

export type SharedItem =
  /** A downloaded artifact (plan or artifact): its record and bytes, or the file they went to. */
  | {
      kind: 'artifact';
      what: 'plan' | 'artifact';
      artifact: Artifact;
      bytes: Buffer;
      contentType: string | undefined;
      /** Set when the bytes were written to this file instead of stdout. */
      written?: string;
    }
  /** The sessions this machine created or sent to (ls, show of a group), the most recently used first. */
  | { kind: 'sessions'; profile: string; baseUrl: string | undefined; sessions: KnownSession[] }
  /** A dashboard address for the browser (open, show --web): opened where one can be, else printed. */
  | { kind: 'browse'; url: string }
  /** Data for stdout that is a value as it stands (a config value, a path): a line, or `json` with --json. */
  | { kind: 'value'; text: string | undefined; json: unknown }
  /** A line for a person on stderr (silenced by --quiet). */
  | { kind: 'note'; text: string };

export const SHARED_HANDLERS: Handlers<SharedItem> = {
  async artifact(p, item) {
    // A plan on a terminal is markdown.
    if (item.what === 'plan' && item.written === undefined) await p.useMarkdown();
    const { artifact, bytes, written } = item;
    // The record; a plan also with its text (markdown), which a script most likely wants.
    if (p.json) p.out(jsonLine(item.what === 'plan' ? { artifact, text: bytes.toString('utf8') } : artifact));
    // A pipe gets the bytes as stored; a terminal the text made harmless (a plan as markdown).
    else if (written === undefined && !p.text.tty) p.ctx.io.stdout.write(bytes);
    else if (written === undefined) {
      const text = bytes.toString('utf8');
      p.out(item.what === 'plan' ? bodyText(text, p.text) : line(serviceText(text, p.text)));
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
    const { ctx } = p;
    const { opened, why, error } = await openInBrowser(ctx.io, url);
    if (error !== undefined) ctx.log.warn(`could not start a browser: ${error}`);
    const shown = serviceText(url, p.text);
    if (p.json) p.out(jsonLine({ url, opened }));
    else if (!opened) p.out(`${shown}\n`);
    if (opened) ctx.log.info(`Opening ${shown} in your browser.`);
    else if (why !== undefined && ctx.caps.stderrIsTTY)
      ctx.log.hint(`No browser opened here (${why}): the address is above.`);
  },
  value(p, item) {
    if (p.json) p.out(jsonLine(item.json));
    else if (item.text !== undefined) p.out(`${item.text}\n`);
  },
  note: (p, { text }) => p.ctx.log.info(text),
};
