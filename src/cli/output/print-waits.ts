// The presenter's handlers for what src/core/sessions yields while a command posts and waits.
import { githubOutputs, resultOutputs, type SessionItem, stepSummary } from '../../core/index.js';
import { escapeForLine, errorMessage } from '../../util/text.js';
import { notify } from './notify.js';
import { jsonLine, type Handlers, type Printer } from './printer.js';
import { activityLine, bodyText, line, renderEntry, serviceText } from './render-conversation.js';
import { renderReplyHeader } from './status-lines.js';

/** Appends to a file the CI runner reads; a failure is a warning (the job's result is on stdout too). */
async function appendRunnerFile(p: Printer, path: string, text: string): Promise<void> {
  try {
    // Not imported: fs/promises costs every run of the presenter a dozen of Node's modules.
    await process.getBuiltinModule('node:fs/promises').appendFile(path, text);
  } catch (err) {
    p.ctx.log.warn(`could not write ${path}: ${errorMessage(err)}`);
  }
}

const ENDED = { replied: 'replied', 'timed-out': 'timed out waiting for', failed: 'stopped waiting for' };

export const WAIT_HANDLERS: Handlers<SessionItem> = {
  async entry(p, { entry, repeats }) {
    if (['user', 'reply', 'final'].includes(entry.kind)) await p.useMarkdown();
    if (entry.kind === 'notice') p.notice(entry.message);
    else if (p.json) p.out(jsonLine(entry.message));
    else {
      const text = renderEntry({ ...entry, repeats }, p.text);
      if (text !== '') p.out(text);
    }
  },
  async reply(p, item) {
    await p.useMarkdown();
    p.ctx.progress.stop();
    // With a result: the final Message's fields (as before) and the result's, one object.
    if (p.json) p.out(jsonLine(item.result ? { ...item.message, ...item.result } : item.message));
    // Piped, the reply byte for byte (`> answer.md` holds exactly what the agent wrote).
    else p.out(p.text.tty ? bodyText(item.message.message, p.text) : item.message.message);
  },
  'structured-reply'(p, item) {
    p.ctx.progress.stop();
    // One line of JSON, on a terminal too: what `jq` and `read` take.
    p.out(jsonLine(p.json ? { ...item.message, ...item.result } : item.value));
  },
  'wait-result'(p, { result }) {
    p.ctx.progress.stop();
    if (p.json) p.out(jsonLine(result));
  },
  waiting: (p, { label, sessionId, url }) =>
    p.ctx.progress.start(`Waiting for ${label}…`, { sessionId, url }),
  activity: (p, { entry }) => p.ctx.progress.activity(activityLine(entry)),
  waited: (p) => p.ctx.progress.stop(),
  'github-ids': (p, { output, ids }) => appendRunnerFile(p, output, githubOutputs({ ...ids })),
  async 'github-result'(p, { result, summary, output, title }) {
    if (summary !== undefined) await appendRunnerFile(p, summary, stepSummary(result, title));
    if (output !== undefined) await appendRunnerFile(p, output, githubOutputs(resultOutputs(result)));
  },
  async 'wait-ended'(p, { who, title, outcome, notify: flag, result }) {
    const what = title ? `: ${title}` : '';
    const body = outcome === 'replied' ? `${who} replied${what}` : `${ENDED[outcome]} ${who}${what}`;
    await notify(p.ctx, { title: 'agents', body, result }, flag);
  },
  'schema-retry'(p, { problem, retry, of }) {
    const n = problem.kind === 'mismatch' ? problem.errors.length : 0;
    const what = problem.kind === 'no-json' ? 'no JSON found' : `${n} error${n === 1 ? '' : 's'}`;
    p.ctx.log.info(`answer did not match the schema (${what}); asking again (${retry} of ${of})`);
  },
  'schema-mismatch'(p, { problem }) {
    const lines =
      problem.kind === 'no-json'
        ? ['the last answer held no JSON (the whole reply, or a ```json block)']
        : [
            'the last answer did not match the schema:',
            ...problem.errors.map((e) => `  ${e.path === '' ? '(the value)' : e.path}: ${e.message}`),
          ];
    // Part of the error the run ends with, so never silenced.
    p.ctx.stderr.write(lines.map((l) => `${escapeForLine(l)}\n`).join(''));
  },
  async 'wait-status'(p, { key, row }) {
    const lines = await p.statusLines();
    if (row === undefined) lines.delete(key);
    else lines.set(key, row);
  },
  'wait-reply'(p, item) {
    const { sessionId, threadId, message, structured, several } = item;
    if (p.json) {
      const fields = structured ? { structured_output: structured.value } : {};
      p.out(jsonLine({ session: sessionId, thread: threadId, message, ...fields }));
      return;
    }
    const body = structured ? jsonLine(structured.value) : undefined;
    if (p.text.tty) {
      const header = renderReplyHeader(sessionId, item.title, p.text.style, p.ctx.caps.columns);
      p.out(`${header}\n${body ?? line(serviceText(message.message, p.text))}`);
    } else {
      // stdout stays the replies alone; among several, whose each is goes to stderr before it.
      if (several) p.ctx.log.info(`reply of ${sessionId}/${threadId}:`);
      p.out(body ?? `${message.message}\n`);
    }
  },
  'next-steps'(p, { sessionId, finished }) {
    const steps = finished
      ? [`Reply:       agents send ${sessionId} "…"`, `Read it all: agents show ${sessionId}`]
      : [`Follow it:   agents tail ${sessionId}`, `Reply:       agents send ${sessionId} "…"`];
    if (p.ctx.caps.stderrIsTTY) p.ctx.log.hint(steps.join('\n'));
  },
  warning: (p, { text }) => p.ctx.log.warn(text),
  error(p, { text, hint }) {
    p.ctx.stderr.write(`error: ${escapeForLine(text)}\n${hint ? `hint: ${escapeForLine(hint)}\n` : ''}`);
  },
};
