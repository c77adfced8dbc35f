// Pure: what the editor sends made into a message, and what the conversation holds made into ACP's
// session updates (message chunks, tool calls, a plan). No I/O and no SDK code: types only.
import type { ContentBlock, PlanEntry, SessionUpdate, ToolKind } from '@agentclientprotocol/sdk';
import type { Entry } from '../core/index.js';

/** ACP's tool kinds for the tools Blocks' agents call; any other is 'other'. */
const KINDS: Record<string, ToolKind> = {
  Read: 'read',
  Edit: 'edit',
  MultiEdit: 'edit',
  Write: 'edit',
  Bash: 'execute',
  Grep: 'search',
  Glob: 'search',
  WebFetch: 'fetch',
};

/** The longest tool-call title: a panel shows it on one line. */
const TITLE_MAX = 120;

/** The message a prompt becomes: text as it is; an embedded text resource as a fenced block headed by its
 * URI; a resource link as its URI. Images, audio and binary resources are refused (initialize says so). */
export function promptText(blocks: readonly ContentBlock[]): string {
  const parts = blocks.map((b) => {
    switch (b.type) {
      case 'text':
        return b.text;
      case 'resource_link':
        return b.uri;
      case 'resource': {
        if (!('text' in b.resource)) throw new Error(`binary resources are not supported: ${b.resource.uri}`);
        // Longer than any run of backticks in the text, so that the text cannot close it.
        const longest = Math.max(0, ...[...b.resource.text.matchAll(/`+/g)].map((m) => m[0].length));
        const fence = '`'.repeat(Math.max(3, longest + 1));
        return `${b.resource.uri}\n${fence}\n${b.resource.text}\n${fence}`;
      }
      default:
        throw new Error(`${b.type} content is not supported: send text (and files as text)`);
    }
  });
  return parts.join('\n\n').trim();
}

/** A pull request as one line: its address, and its status when the service gives one. */
export function pullRequestLine(p: { url: string; status?: string }): string {
  return p.status ? `${p.url} (${p.status})` : p.url;
}

export function agentText(text: string): SessionUpdate {
  return { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } };
}

/** What goes before `next` so that it starts a paragraph of its own after `before` (the agent text shown last
 * since the user spoke): an editor joins agent message chunks, so two messages would run together. */
export function paragraphGap(before: string | undefined, next: string): string {
  if (before === undefined || before === '' || next === '') return '';
  const newlines = (/\n*$/.exec(before)?.[0].length ?? 0) + (/^\n*/.exec(next)?.[0].length ?? 0);
  return '\n'.repeat(Math.max(0, 2 - newlines));
}

export function toolKind(name: string): ToolKind {
  return KINDS[name] ?? 'other';
}

/** The argument a tool call's title shows, when the call names one of these (else its decoded input). */
const TITLE_KEYS = ['command', 'file_path', 'path', 'pattern', 'url', 'query', 'input'];

/** A tool call as ACP shows it, completed (Blocks reports a call after it ran). */
export function toolCall(e: Entry): SessionUpdate {
  const name = e.tool?.name ?? 'tool call';
  let rawInput: unknown = e.message.message;
  try {
    rawInput = JSON.parse(e.message.message) as unknown;
  } catch {
    // Not JSON: the text as it came.
  }
  const args = typeof rawInput === 'object' && rawInput !== null ? (rawInput as Record<string, unknown>) : {};
  const named = TITLE_KEYS.map((k) => args[k]).find((v): v is string => typeof v === 'string' && v !== '');
  const input = (named ?? e.tool?.input ?? '').split('\n')[0] ?? '';
  const whole = input === '' ? name : `${name} ${input}`;
  const title = whole.length > TITLE_MAX ? `${whole.slice(0, TITLE_MAX - 1)}…` : whole;
  return {
    sessionUpdate: 'tool_call',
    toolCallId: e.message.id,
    title,
    kind: toolKind(name),
    status: 'completed',
    rawInput,
  };
}

/** An entry as the update a panel shows; none for notices. */
export function entryUpdate(e: Entry): SessionUpdate | undefined {
  switch (e.kind) {
    case 'user':
      return { sessionUpdate: 'user_message_chunk', content: { type: 'text', text: e.message.message } };
    case 'reply':
    case 'final':
      return agentText(e.message.message);
    case 'tool':
      return toolCall(e);
    default:
      return undefined;
  }
}

const ITEM = /^\s*(?:[-*+]|\d+[.)])\s+(?:\[( |x|X)\]\s+)?(.+?)\s*$/;

/** A plan's entries: one per markdown list item (checked: completed), or with no list its first line. */
export function planEntries(markdown: string): PlanEntry[] {
  const items = markdown.split('\n').flatMap((line): PlanEntry[] => {
    const m = ITEM.exec(line);
    if (m === null) return [];
    const done = m[1] !== undefined && m[1] !== ' ';
    return [{ content: m[2]!, priority: 'medium', status: done ? 'completed' : 'pending' }];
  });
  if (items.length > 0) return items;
  const first = markdown
    .split('\n')
    .map((l) => l.replace(/^#+\s*/, '').trim())
    .find((l) => l !== '');
  return first === undefined ? [] : [{ content: first, priority: 'medium', status: 'pending' }];
}
