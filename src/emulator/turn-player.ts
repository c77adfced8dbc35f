// Plays a scripted agent turn: stores the assistant's messages on its clock, as planned by planTurn.
import { oneLine, parseDirectives, planTurn, stripDirectives, type TurnScript } from './directives.js';
import type { MessageType } from '../core/api/types.js';
import type { SessionRecord, ThreadRecord } from './store.js';
import type { TurnTimer } from './turn-clock.js';
import type { Emulation } from './emulation.js';

const TOOLS: [string, (step: number) => string][] = [
  ['Read', (step) => `src/module-${step}.ts`],
  ['Bash', (step) => `npm test -- --run step-${step}`],
  ['Grep', (step) => `TODO step ${step}`],
  ['Edit', (step) => `src/module-${step}.ts`],
];

/** The sandbox warning the live service stores after a turn, outside any thread. */
export const SANDBOX_NOTICE = 'Sandbox will be paused after 15 minutes of inactivity.';

const FILLER = 'lorem ipsum dolor sit amet ';

/** The final reply: `reply`, then the session's `replies`, then `echo`, then `size`, then the default. */
function finalText(script: TurnScript, userText: string, record: SessionRecord): string {
  if (script.reply !== undefined) return script.reply;
  // `[[replies:…]]`: each turn takes the next one, the last one stays.
  const queue = record.replies ?? [];
  const next = queue.length > 1 ? queue.shift() : queue[0];
  if (next !== undefined) return next;
  const prompt = stripDirectives(userText);
  if (script.echo) return prompt;
  if (script.size !== undefined)
    return FILLER.repeat(Math.ceil(script.size / FILLER.length)).slice(0, script.size);
  return `${record.agentLabel} finished: "${oneLine(prompt, 60)}". Done.`;
}

/** Starts the turn `userText` asks for; the session's turn in progress stops, its rest never stored. */
export function startTurn(e: Emulation, record: SessionRecord, thread: ThreadRecord, userText: string): void {
  record.turn?.cancel();
  record.turn = undefined;
  const script = parseDirectives(userText);
  // A directive this dialect cannot honour is said, never silently dropped: at once on the emulator's
  // stderr, and in the reply, where the person who sent it looks.
  const refused =
    script.plan !== undefined && !e.dialect.artifacts
      ? `[[plan:…]] does nothing in the ${e.dialect.name} dialect, which has no plans; run the emulator with --dialect live`
      : undefined;
  if (refused) e.opts.onNotice?.(`session ${record.id}: ${refused}`);
  if (script.replies !== undefined) record.replies = [...script.replies];
  const pending = new Set<TurnTimer>();
  let firstTs: number | undefined;
  // [[instant]]: the whole turn is stamped at the user message's instant, whenever each message lands.
  const at = script.instant
    ? record.messages.findLast((s) => s.msg.chat_thread_id === thread.id && s.msg.role === 'user')?.createdMs
    : undefined;

  const tsFor = (createdMs: number): number => {
    if (at !== undefined) return Math.floor(at / 1000);
    // The live service's ts is fractional; the spec's example values are whole seconds.
    const seconds = e.dialect.fractionalTs ? createdMs / 1000 : Math.floor(createdMs / 1000);
    let ts = seconds - script.tsLagS;
    if (script.tsShuffle) ts -= Math.floor(Math.random() * 4);
    if (script.sameTs) firstTs ??= ts;
    return script.sameTs && firstTs !== undefined ? firstTs : ts;
  };
  const put = (type: MessageType, message: string, ts = tsFor, threadId: string | null = thread.id) =>
    e.store.store(record, { threadId, taskId: thread.taskId, role: 'assistant', type, message, ts, at });

  const handle = {
    cancel: () => {
      for (const t of pending) e.clock.cancel(t);
      pending.clear();
    },
  };

  for (const ev of planTurn(script)) {
    const t = e.clock.after(
      ev.atMs * e.timeScale,
      () => {
        pending.delete(t);
        if (ev.kind === 'final') {
          const said = refused ? `\n\n(emulator: ${refused})` : '';
          const text = finalText(script, userText, record) + said;
          // The live service first repeats the final's text as a `message`.
          if (e.dialect.duplicateFinal) put('message', text);
          if (script.plan !== undefined) e.store.attach(record, { kind: 'plan', content: script.plan });
          if (script.pr !== undefined) record.pullRequests.push({ url: script.pr, status: 'open' });
          put('final_message', text);
          // Notices arrive after the final, outside the thread.
          for (const notice of [script.notice, e.dialect.notices ? SANDBOX_NOTICE : undefined]) {
            if (notice !== undefined) put('message', notice, tsFor, null);
          }
        } else {
          // A burst shares one ts second even if the 1 ms storage bumps cross into the next second.
          let burstTs: number | undefined;
          const ts = (ms: number) => (burstTs ??= tsFor(ms));
          for (let i = ev.first; i < ev.first + ev.count; i += 1) {
            // Intermediates alternate: a message, then a tool call.
            const [tool, input] = TOOLS[Math.floor(i / 2) % TOOLS.length]!;
            if (i % 2 === 0) put('message', `${record.agentLabel} is working on it (step ${i + 1}).`, ts);
            else put('tool_call', e.dialect.toolCall(tool, input(i + 1)), ts);
          }
        }
        if (pending.size === 0 && record.turn === handle) record.turn = undefined;
      },
      record.id,
    );
    pending.add(t);
  }
  if (pending.size > 0) record.turn = handle;
}
