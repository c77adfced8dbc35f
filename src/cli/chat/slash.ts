// Commands typed at the chat's prompt: `/new`, `/show`, `/open`, `/plan`, `/copy`, `/save FILE`, `/help`,
// `/quit`. Pure: a line in, what it asks for out. `//x` is a message starting with `/`.
import { CORE_AGENTS, type CoreAgent } from '../../core/index.js';

/** What a line typed at the prompt asks for. */
export type Slash =
  | { name: 'new'; agent?: CoreAgent }
  | { name: 'show' }
  | { name: 'open' }
  | { name: 'plan' }
  | { name: 'copy' }
  | { name: 'save'; file: string }
  | { name: 'help' }
  | { name: 'quit' }
  /** A slash command that is not one (or is missing its argument): say why. */
  | { name: 'error'; text: string };

/** Every command, as /help lists it (and Tab completes). */
export const SLASH_HELP: readonly (readonly [string, string])[] = [
  ['/new [AGENT]', 'a new session (same agent)'],
  ['/show', 'the whole conversation'],
  ['/open', 'the session in a browser'],
  ['/plan', 'the latest plan'],
  ['/copy', 'the last reply to the clipboard'],
  ['/save FILE', 'the last reply to FILE'],
  ['/help', 'this help'],
  ['/quit', 'leave (also Ctrl-D)'],
];

/** The keys, as /help lists them. */
export const KEY_HELP: readonly (readonly [string, string])[] = [
  ['Enter', 'send (asks before interrupting)'],
  ['\\ Enter, Alt-Enter', 'a new line'],
  ['Ctrl-C', 'clear the line; on an empty one, leave'],
  ['Ctrl-D', 'leave'],
  ['Up, Down', 'earlier messages'],
  ['//text', 'send a message starting with /'],
];

/** The commands that take no argument. */
const PLAIN = ['show', 'open', 'plan', 'copy', 'help', 'quit'] as const;
const NAMES = ['new', ...PLAIN, 'save', 'exit'];

/** The command a line holds, or undefined when the line is a message (no leading `/`, or `//`). */
export function parseSlash(line: string): Slash | undefined {
  const text = line.trim();
  if (!text.startsWith('/') || text.startsWith('//')) return undefined;
  const head = /^\S*/.exec(text.slice(1))?.[0] ?? '';
  const arg = text.slice(1 + head.length).trim();
  const name = head.toLowerCase();
  switch (name) {
    case 'new': {
      if (arg === '') return { name: 'new' };
      const agent = CORE_AGENTS.find((a) => a === arg.toLowerCase());
      if (agent !== undefined) return { name: 'new', agent };
      return { name: 'error', text: `no agent "${arg}"; one of ${CORE_AGENTS.join(', ')}` };
    }
    case 'save':
      if (arg === '') return { name: 'error', text: 'which file? /save FILE' };
      return { name: 'save', file: arg };
    case 'exit':
      return { name: 'quit' };
  }
  const plain = PLAIN.find((n) => n === name);
  if (plain !== undefined) return { name: plain };
  return { name: 'error', text: `no command /${head}; /help lists them (//${head} sends it as a message)` };
}

/** The text a message line sends (`//x` sends `/x`). */
export function messageText(line: string): string {
  return line.trimStart().startsWith('//') ? line.replace('/', '') : line;
}

/** Tab on `/pl` gives `/plan `; undefined when the line is not a unique command prefix. */
export function completeSlash(line: string): string | undefined {
  if (!/^\/[a-z]*$/i.test(line)) return undefined;
  const matches = NAMES.filter((n) => n.startsWith(line.slice(1).toLowerCase()));
  return matches.length === 1 ? `/${matches[0]} ` : undefined;
}
