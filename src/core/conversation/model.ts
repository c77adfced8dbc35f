// The conversation a person reads, from the service's raw messages: the live service's ways absorbed once.
import type { Message } from '../api/types.js';
import { isFinalReply } from './turn-state.js';
import { isObject } from '../../util/json.js';
import { flatten } from '../../util/text.js';

/** A decoded tool call: the tool's name and its arguments as one text. */
export interface ToolCall {
  name: string;
  input: string;
}

/** One message, classified. */
export interface Entry {
  kind: 'user' | 'reply' | 'final' | 'tool' | 'notice';
  message: Message;
  /** For kind 'tool': the call, when its text could be decoded. */
  tool?: ToolCall;
}

/** An entry as it lands: `repeats` marks a final whose text was just shown as a message. */
export type LandedEntry = Entry & { repeats?: boolean };

const NAME_KEYS = ['__name__', 'name', 'tool'];

/** One argument's value as text: a plain word as it is, anything else as JSON (quoted, escaped). */
function argText(v: unknown): string {
  if (typeof v === 'string') return /^[^\s"=]+$/.test(v) ? v : JSON.stringify(v);
  return JSON.stringify(v) ?? String(v);
}

/** Pure: the tool call a `tool_call` text encodes, if we can read it. The live service sends
 * `{"__name__": tool, ...args}`, some tools put their arguments under `input`, the spec `{"tool", "input"}`.
 * The arguments become one text: `input` as it is; else `key=value` pairs (a lone one, its value alone). */
export function decodeToolCall(text: string): ToolCall | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(value)) return undefined;
  const name = NAME_KEYS.map((k) => value[k]).find((v) => typeof v === 'string' && v !== '');
  if (typeof name !== 'string') return undefined;
  const raw = 'input' in value ? value.input : 'arguments' in value ? value.arguments : undefined;
  if (raw !== undefined) return { name, input: typeof raw === 'string' ? raw : (JSON.stringify(raw) ?? '') };
  const args = Object.entries(value).filter(([k]) => !NAME_KEYS.includes(k));
  const only = args.length === 1 ? args[0] : undefined;
  if (only) return { name, input: typeof only[1] === 'string' ? only[1] : argText(only[1]) };
  return { name, input: args.map(([k, v]) => `${k}=${argText(v)}`).join(' ') };
}

/** Pure: a tool call as one line, `⚙ Bash  npm test` (its raw text when it could not be decoded). */
export function toolSummary(entry: Pick<Entry, 'tool' | 'message'>): string {
  const one = (s: string) => flatten(s, 10_000);
  return entry.tool
    ? `⚙ ${one(entry.tool.name)}  ${one(entry.tool.input)}`.trimEnd()
    : `⚙ ${one(entry.message.message)}`;
}

/** Pure: what one message is (items with `chat_thread_id: null` are the service's notices, not replies). */
export function classify(m: Message): Entry {
  if (m.chat_thread_id === null) return { kind: 'notice', message: m };
  if (m.role === 'user') return { kind: 'user', message: m };
  if (isFinalReply(m)) return { kind: 'final', message: m };
  if (m.type === 'tool_call') return { kind: 'tool', message: m, tool: decodeToolCall(m.message) };
  return { kind: 'reply', message: m };
}

export interface Conversation {
  /** The entries to show, in order: notices and the duplicate finals left out. */
  entries: Entry[];
  /** System notices, in order. */
  notices: Entry[];
  /** The `message` copies of a final reply that were left out. */
  duplicates: Message[];
}

/** Pure: messages (in storage order) as the conversation to show. The live service repeats each thread's
 * final reply as its last `message`: that copy is left out (the final is what scripts look for); notices set
 * apart. */
export function readConversation(messages: readonly Message[]): Conversation {
  const finals = new Map<string, string>();
  for (const m of messages) if (isFinalReply(m)) finals.set(m.chat_thread_id!, m.message);
  // Only one copy per thread is the service's; a second identical message would be the agent's own.
  const copied = new Set<string>();
  const entries: Entry[] = [];
  const notices: Entry[] = [];
  const duplicates: Message[] = [];
  for (const m of messages) {
    const entry = classify(m);
    const thread = m.chat_thread_id ?? '';
    if (entry.kind === 'notice') notices.push(entry);
    else if (entry.kind === 'reply' && finals.get(thread) === m.message && !copied.has(thread)) {
      copied.add(thread);
      duplicates.push(m);
    } else entries.push(entry);
  }
  return { entries, notices, duplicates };
}

/** The same rules for messages that arrive a poll at a time. The service's copy of a final can come before or
 * after the final: `hold` (scripts) holds a `message` that ends a batch until the next one, so that a final
 * then drops it (the conversation exactly, one poll late); `show` (people) shows each at once and marks a
 * final whose text was just shown `repeats`. */
export class ConversationStream {
  private held: Message | undefined;
  /** Per thread: the text of the last assistant message shown, and the final's. */
  private readonly lastShown = new Map<string, string>();
  private readonly finals = new Map<string, string>();

  constructor(private readonly policy: 'hold' | 'show') {}

  /** Entries to show now for a batch of new messages (storage order). */
  push(batch: readonly Message[]): LandedEntry[] {
    // The text of the final of `m`'s thread in the batch, from index `from` on.
    const finalText = (m: Message, from: number) =>
      batch.slice(from).find((x) => isFinalReply(x) && x.chat_thread_id === m.chat_thread_id)?.message;
    const out: LandedEntry[] = [];
    const held = this.held;
    this.held = undefined;
    if (held !== undefined && finalText(held, 0) !== held.message) out.push(this.emit(held));
    batch.forEach((m, i) => {
      if (classify(m).kind === 'reply') {
        // The copy, arriving after its final (already shown), or before it in this same batch.
        const copy =
          this.finals.get(m.chat_thread_id ?? '') === m.message || finalText(m, i + 1) === m.message;
        if (copy) return;
        if (this.policy === 'hold' && i === batch.length - 1) {
          this.held = m;
          return;
        }
      }
      out.push(this.emit(m));
    });
    return out;
  }

  /** Takes messages already shown (a tail's backlog, oldest first) as the state to go on from. */
  prime(shown: readonly Message[]): void {
    for (const m of shown) this.emit(m);
  }

  /** Whatever is held back, when no more messages will come (no final can drop it now). */
  flush(): LandedEntry[] {
    return this.push([]);
  }

  private emit(m: Message): LandedEntry {
    const entry = classify(m);
    const thread = m.chat_thread_id ?? '';
    if (entry.kind === 'final') {
      this.finals.set(thread, m.message);
      return this.lastShown.get(thread) === m.message ? { ...entry, repeats: true } : entry;
    }
    if (entry.kind === 'reply') this.lastShown.set(thread, m.message);
    return entry;
  }
}

/** The entries of batches of messages through a ConversationStream, then whatever it held back. */
export async function* streamConversation(
  batches: AsyncIterable<readonly Message[]>,
  policy: 'hold' | 'show',
): AsyncGenerator<LandedEntry> {
  const stream = new ConversationStream(policy);
  for await (const batch of batches) yield* stream.push(batch);
  yield* stream.flush();
}
