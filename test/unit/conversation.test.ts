// The conversation model, string in, string out: the live service's duplicate final, its notices and its
// tool-call encoding, read whole (show) and a few messages at a time (follow, tail).
import { describe, expect, it } from 'vitest';
import type { Message } from '../../src/core/api/types.js';
import {
  ConversationStream,
  classify,
  decodeToolCall,
  readConversation,
} from '../../src/core/conversation/model.js';

let n = 0;
function msg(over: Partial<Message>): Message {
  n += 1;
  return {
    id: `m${n}`,
    chat_id: 's',
    chat_thread_id: 't1',
    task_id: 'k',
    role: 'assistant',
    type: 'message',
    message: `text ${n}`,
    ts: n,
    created_at: new Date(1_700_000_000_000 + n).toISOString(),
    updated_at: new Date(1_700_000_000_000 + n).toISOString(),
    ...over,
  };
}

describe('decodeToolCall', () => {
  it.each([
    ['the live shape', '{"__name__":"Bash","input":"npm test"}', { name: 'Bash', input: 'npm test' }],
    [
      'input as an object',
      '{"__name__":"Edit","input":{"path":"a.ts"}}',
      { name: 'Edit', input: '{"path":"a.ts"}' },
    ],
    ['no input', '{"__name__":"Think"}', { name: 'Think', input: '' }],
    ['a `tool` key', '{"tool":"read_file","input":{"step":1}}', { name: 'read_file', input: '{"step":1}' }],
    [
      'top-level arguments (the live service)',
      '{"__name__":"Bash","command":"ls -la","description":"List files"}',
      { name: 'Bash', input: 'command="ls -la" description="List files"' },
    ],
    [
      'one top-level argument: its value',
      '{"__name__":"Read","file_path":"src/a.ts"}',
      { name: 'Read', input: 'src/a.ts' },
    ],
    [
      'words unquoted, numbers and objects as JSON',
      '{"__name__":"Grep","pattern":"TODO","limit":5,"opts":{"i":true}}',
      { name: 'Grep', input: 'pattern=TODO limit=5 opts={"i":true}' },
    ],
  ])('%s', (_name, text, expected) => {
    expect(decodeToolCall(text)).toEqual(expected);
  });
  it.each([
    ['not JSON', 'run npm test'],
    ['an array', '[1]'],
    ['no name', '{"input":"x"}'],
    ['empty name', '{"__name__":""}'],
  ])('%s is not decoded', (_name, text) => {
    expect(decodeToolCall(text)).toBeUndefined();
  });
});

describe('classify', () => {
  it('tells user, reply, final, tool and notice apart', () => {
    expect(classify(msg({ role: 'user' })).kind).toBe('user');
    expect(classify(msg({})).kind).toBe('reply');
    expect(classify(msg({ type: 'final_message' })).kind).toBe('final');
    const tool = classify(msg({ type: 'tool_call', message: '{"__name__":"Bash","input":"ls"}' }));
    expect(tool).toMatchObject({ kind: 'tool', tool: { name: 'Bash', input: 'ls' } });
    // A notice is known by its thread, whatever its type.
    expect(classify(msg({ chat_thread_id: null, type: 'final_message' })).kind).toBe('notice');
  });
});

describe('readConversation', () => {
  it('drops the copy of the final reply, once per thread, and keeps the final', () => {
    const user = msg({ role: 'user', message: 'go' });
    const step = msg({ message: 'working' });
    const copy = msg({ message: 'All done.' });
    const final = msg({ type: 'final_message', message: 'All done.' });
    const c = readConversation([user, step, copy, final]);
    expect(c.entries.map((e) => e.message.id)).toEqual([user.id, step.id, final.id]);
    expect(c.duplicates.map((m) => m.id)).toEqual([copy.id]);
  });

  it('drops the copy whether it comes before or after the final', () => {
    const final = msg({ type: 'final_message', message: 'same' });
    const copy = msg({ message: 'same' });
    expect(readConversation([final, copy]).entries.map((e) => e.message.id)).toEqual([final.id]);
  });

  it('keeps a message that only resembles another thread’s final', () => {
    const a = msg({ chat_thread_id: 't1', type: 'final_message', message: 'ok' });
    const b = msg({ chat_thread_id: 't2', message: 'ok' });
    expect(readConversation([a, b]).entries.map((e) => e.message.id)).toEqual([a.id, b.id]);
  });

  it('sets notices apart: never an entry, wherever they fall', () => {
    const reply = msg({});
    const notice = msg({ chat_thread_id: null, message: 'Sandbox will be stopped' });
    const final = msg({ type: 'final_message' });
    const late = msg({ chat_thread_id: null, message: 'Sandbox stopped' });
    const c = readConversation([reply, notice, final, late]);
    expect(c.entries.map((e) => e.message.id)).toEqual([reply.id, final.id]);
    expect(c.notices.map((e) => e.message.id)).toEqual([notice.id, late.id]);
  });
});

describe('ConversationStream', () => {
  it('show: the copy before its final shows at once, and the final is marked as repeating it', () => {
    const s = new ConversationStream('show');
    const copy = msg({ message: 'Done.' });
    expect(s.push([copy]).map((e) => e.message.id)).toEqual([copy.id]);
    const final = msg({ type: 'final_message', message: 'Done.' });
    expect(s.push([final])).toEqual([{ kind: 'final', message: final, repeats: true }]);
  });

  it('both: a copy followed by its final in the same batch is left out, and the final shown as final', () => {
    for (const policy of ['show', 'hold'] as const) {
      const s = new ConversationStream(policy);
      const step = msg({ message: 'working' });
      const copy = msg({ message: 'Done.' });
      const final = msg({ type: 'final_message', message: 'Done.' });
      expect(s.push([step, copy, final]).map((e) => [e.message.id, e.kind, e.repeats])).toEqual([
        [step.id, 'reply', undefined],
        [final.id, 'final', undefined],
      ]);
    }
  });

  it('show: a copy after its final is not shown again', () => {
    const s = new ConversationStream('show');
    const final = msg({ type: 'final_message', message: 'Done.' });
    expect(s.push([final])).toEqual([{ kind: 'final', message: final }]);
    expect(s.push([msg({ message: 'Done.' })])).toEqual([]);
  });

  it('hold: a message ending a batch waits for the next one, and a final with its text drops it', () => {
    const s = new ConversationStream('hold');
    const step = msg({ message: 'working' });
    const copy = msg({ message: 'Done.' });
    expect(s.push([step, copy]).map((e) => e.message.id)).toEqual([step.id]);
    const final = msg({ type: 'final_message', message: 'Done.' });
    expect(s.push([final])).toEqual([{ kind: 'final', message: final }]);
    expect(s.flush()).toEqual([]);
  });

  it('hold: a held message that is no copy is shown with the next batch, or at the end', () => {
    const s = new ConversationStream('hold');
    const a = msg({ message: 'first' });
    expect(s.push([a])).toEqual([]);
    expect(s.push([]).map((e) => e.message.id)).toEqual([a.id]);
    const b = msg({ message: 'second' });
    expect(s.push([b])).toEqual([]);
    expect(s.flush().map((e) => e.message.id)).toEqual([b.id]);
  });

  it('passes notices and tool calls through classified', () => {
    const s = new ConversationStream('show');
    const out = s.push([
      msg({ chat_thread_id: null, message: 'Sandbox warning' }),
      msg({ type: 'tool_call', message: '{"__name__":"Bash","input":"npm test"}' }),
    ]);
    expect(out.map((e) => e.kind)).toEqual(['notice', 'tool']);
    expect(out[1]?.tool).toEqual({ name: 'Bash', input: 'npm test' });
  });
});
