// Plays a scripted agent turn: stores the assistant's messages on timers, as planned by planTurn.
import { oneLine, parseDirectives, planTurn, stripDirectives, type TurnScript } from './directives.js';
import type { SessionRecord, Store, ThreadRecord, TurnHandle } from './store.js';

/** Owns every timer the emulator starts, so close() can stop them all. */
export class Timers {
  private readonly live = new Set<NodeJS.Timeout>();

  after(ms: number, fn: () => void): NodeJS.Timeout {
    const t = setTimeout(() => {
      this.live.delete(t);
      fn();
    }, ms);
    this.live.add(t);
    return t;
  }

  cancel(t: NodeJS.Timeout): void {
    clearTimeout(t);
    this.live.delete(t);
  }

  cancelAll(): void {
    for (const t of this.live) clearTimeout(t);
    this.live.clear();
  }
}

/** What a turn needs from the emulator. */
export interface TurnEnv {
  store: Store;
  timers: Timers;
  timeScale: number;
  /** 0 <= x < 1; only ts-shuffle uses it. */
  random: () => number;
}

const TOOLS = ['read_file', 'run_tests', 'search_code', 'edit_file'];

function intermediate(agent: string, i: number): { type: 'message' | 'tool_call'; text: string } {
  if (i % 2 === 0) return { type: 'message', text: `${agent} is working on it (step ${i + 1}).` };
  const tool = TOOLS[Math.floor(i / 2) % TOOLS.length] ?? 'read_file';
  return { type: 'tool_call', text: JSON.stringify({ tool, input: { step: i + 1 } }) };
}

function filler(size: number): string {
  const unit = 'lorem ipsum dolor sit amet ';
  return unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
}

function finalText(script: TurnScript, userText: string, agent: string): string {
  if (script.reply !== undefined) return script.reply;
  const prompt = stripDirectives(userText);
  if (script.echo) return prompt;
  if (script.size !== undefined) return filler(script.size);
  return `${agent} finished: "${oneLine(prompt, 60)}". Done.`;
}

/**
 * Starts the turn that `userText` triggered on `thread`, interrupting the session's turn in progress
 * (whose pending messages, final included, are never stored).
 */
export function startTurn(env: TurnEnv, record: SessionRecord, thread: ThreadRecord, userText: string): void {
  record.turn?.cancel();
  record.turn = undefined;
  const script = parseDirectives(userText);
  const events = planTurn(script);
  const pending = new Set<NodeJS.Timeout>();
  let firstTs: number | undefined;

  const tsFor = (createdMs: number): number => {
    let ts = Math.floor(createdMs / 1000) - script.tsLagS;
    if (script.tsShuffle) ts -= Math.floor(env.random() * 4);
    if (script.sameTs) firstTs ??= ts;
    return script.sameTs && firstTs !== undefined ? firstTs : ts;
  };

  const handle: TurnHandle = {
    threadId: thread.id,
    cancel: () => {
      for (const t of pending) env.timers.cancel(t);
      pending.clear();
    },
  };

  for (const ev of events) {
    const t = env.timers.after(ev.atMs * env.timeScale, () => {
      pending.delete(t);
      if (ev.kind === 'final') {
        const text = finalText(script, userText, record.agentLabel);
        env.store.store(record, { ...base(thread), type: 'final_message', message: text, ts: tsFor });
      } else {
        // A burst shares one ts second even if the 1 ms storage bumps cross into the next second.
        let burstTs: number | undefined;
        for (let i = ev.first; i < ev.first + ev.count; i += 1) {
          const { type, text } = intermediate(record.agentLabel, i);
          const ts = (ms: number) => (burstTs ??= tsFor(ms));
          env.store.store(record, { ...base(thread), type, message: text, ts });
        }
      }
      if (pending.size === 0 && record.turn === handle) record.turn = undefined;
    });
    pending.add(t);
  }
  if (pending.size > 0) record.turn = handle;
}

function base(thread: ThreadRecord) {
  return { threadId: thread.id, taskId: thread.taskId, role: 'assistant' as const };
}
