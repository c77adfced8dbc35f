// The directives, as `agents emulator --help` lists them (the help is in every install, README.md in none).
// Pure data, so --help does not load the emulator; test/main/emulator/directives.test.ts keeps it in step.

export const DIRECTIVE_TABLE: readonly { usage: string; effect: string }[] = [
  { usage: '[[think:MS]]', effect: 'delay before the first assistant message (default 300)' },
  { usage: '[[steps:N]]', effect: 'N intermediate messages, alternating message and tool_call (default 2)' },
  {
    usage: '[[gap:MS]]',
    effect: 'time between intermediates, and from the last one to the final (default 200)',
  },
  { usage: '[[turn:MS]]', effect: 'the final lands MS after the message, intermediates spread before it' },
  { usage: '[[never]]', effect: 'no final message: the turn never ends' },
  { usage: '[[burst:N]]', effect: 'N intermediates stored at one instant with one ts, then the final' },
  { usage: '[[instant]]', effect: "the whole turn stamped with the user message's created_at and ts" },
  { usage: '[[same-ts]]', effect: "every message of the turn carries the first one's ts" },
  { usage: '[[ts-lag:S]]', effect: 'each ts S seconds behind the moment stored (a trailing clock)' },
  { usage: '[[ts-shuffle]]', effect: 'each ts 0 to 3 seconds early, out of storage order' },
  { usage: '[[size:N]]', effect: 'the final is N bytes of filler (at most 16 MiB)' },
  { usage: '[[echo]]', effect: 'the final is the message with its directives removed' },
  { usage: '[[reply:TEXT]]', effect: 'the final is TEXT, URL-decoded (%20 a space, %5D a "]")' },
  { usage: '[[replies:A|B]]', effect: "this turn's final is A, the next one's B, …; the last one repeats" },
  { usage: '[[orphan]]', effect: 'create only: the first message is lost and no turn runs' },
  { usage: '[[plan:TEXT]]', effect: 'the turn writes a plan (markdown, URL-decoded); live dialect only' },
  { usage: '[[pr:URL]]', effect: 'the turn opens a pull request, on the session when the final lands' },
  { usage: '[[notice:TEXT]]', effect: 'a system notice (no thread) stored after the final' },
];

/** The table as --help shows it: one directive a line, under a heading. */
export function directiveHelp(): string {
  const width = Math.max(...DIRECTIVE_TABLE.map((r) => r.usage.length)) + 2;
  return [
    "Directives in a message script the agent's turn (times in ms, scaled by --time-scale):",
    ...DIRECTIVE_TABLE.map((r) => `  ${r.usage.padEnd(width)}${r.effect}`),
    'Unknown directives are ignored; one the dialect cannot honour is said on stderr and in the reply.',
  ].join('\n');
}
