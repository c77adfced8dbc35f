// What agents acp makes of a prompt and of the conversation: the message sent, tool calls' kinds and
// titles, a plan's entries (src/acp/updates.ts, pure).
import { describe, expect, it } from 'vitest';
import { paragraphGap, planEntries, promptText, toolCall, toolKind } from '../../src/acp/updates.js';
import type { Message } from '../../src/core/api/types.js';

const message = (text: string): Message =>
  ({
    id: 'm1',
    chat_id: null,
    chat_thread_id: 't1',
    role: 'assistant',
    type: 'tool_call',
    message: text,
    created_at: '2026-01-01T00:00:00Z',
    ts: null,
  }) as unknown as Message;

describe('acp updates', () => {
  it('a message after agent text starts a paragraph: the blank line it lacks, none at the start of a reply', () => {
    expect(paragraphGap(undefined, 'Done.')).toBe('');
    expect(paragraphGap('(step 3).', 'Done.')).toBe('\n\n');
    expect(paragraphGap('(step 3).\n', 'Done.')).toBe('\n');
    expect(paragraphGap('Blocks session: x\n\n', 'Done.')).toBe('');
    expect(paragraphGap('(step 3).', '\n\nPull requests:')).toBe('');
  });

  it("maps the tools to ACP's kinds as the issue lists them, anything else to other", () => {
    const kinds = ['Read', 'Edit', 'Write', 'Bash', 'Grep', 'Glob', 'WebFetch', 'TodoWrite', 'Task'].map(
      toolKind,
    );
    expect(kinds).toEqual(['read', 'edit', 'edit', 'execute', 'search', 'search', 'fetch', 'other', 'other']);
  });

  it("titles a call by its name and its main argument, completed, with the call's input", () => {
    const bash = toolCall({
      kind: 'tool',
      message: message('{"__name__":"Bash","command":"npm test\\nmore","description":"Run"}'),
      tool: { name: 'Bash', input: 'command="npm test" description=Run' },
    });
    expect(bash).toMatchObject({
      title: 'Bash npm test',
      kind: 'execute',
      status: 'completed',
      toolCallId: 'm1',
    });
    const unread = toolCall({ kind: 'tool', message: message('not json') });
    expect(unread).toMatchObject({ title: 'tool call', kind: 'other', rawInput: 'not json' });
    const long = toolCall({
      kind: 'tool',
      message: message('{}'),
      tool: { name: 'Read', input: 'x'.repeat(300) },
    });
    expect((long as { title: string }).title).toHaveLength(120);
  });

  it("a plan's list items are its entries (checked ones done); a plan with no list, its first line", () => {
    expect(planEntries('# Plan\n\n1. First\n- [x] Done one\n* [ ] Open one\ntext\n')).toEqual([
      { content: 'First', priority: 'medium', status: 'pending' },
      { content: 'Done one', priority: 'medium', status: 'completed' },
      { content: 'Open one', priority: 'medium', status: 'pending' },
    ]);
    expect(planEntries('## Just do it\n\nsome prose')).toEqual([
      { content: 'Just do it', priority: 'medium', status: 'pending' },
    ]);
    expect(planEntries('')).toEqual([]);
  });

  it('a prompt: text as typed, a file as a fenced block under its URI, a link as its URI; images refused', () => {
    expect(
      promptText([
        { type: 'text', text: 'Look' },
        { type: 'resource', resource: { uri: 'file:///a.ts', text: 'const a = 1;' } },
        { type: 'resource_link', uri: 'file:///b.ts', name: 'b.ts' },
      ]),
    ).toBe('Look\n\nfile:///a.ts\n```\nconst a = 1;\n```\n\nfile:///b.ts');
    expect(() => promptText([{ type: 'image', data: '', mimeType: 'image/png' }])).toThrow(
      /image content is not supported/,
    );
    expect(() =>
      promptText([{ type: 'resource', resource: { uri: 'file:///x.bin', blob: 'AA==' } }]),
    ).toThrow(/binary resources are not supported/);
  });
});
