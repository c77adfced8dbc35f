// The root help (`agents`, `agents --help`) is made from the commands' heads (src/commands/<name>/head.ts),
// not from the commands (src/program/root.ts): it must be the whole program's help, byte for byte, at any
// width, on stdout and (a line with no command) on stderr, so that the two can never drift.
import { describe, expect, it } from 'vitest';
import type { Command, OutputConfiguration } from 'commander';
import { buildProgram } from '../../src/program/program.js';
import { HEADS, isRootHelp, rootHelpProgram } from '../../src/program/root.js';
import { runMain } from '../support/main.js';

interface Answer {
  out: string;
  err: string;
  /** How the parse ended: commander's error code, or 'ran'. */
  end: string;
}

/** The answer to `line` of the root made from the heads (`light`, as main() makes it) or of the whole program. */
async function answer(line: string[], width: number, light = false): Promise<[Answer, Command]> {
  const a: Answer = { out: '', err: '', end: '' };
  const output: OutputConfiguration = {
    writeOut: (s) => void (a.out += s),
    writeErr: (s) => void (a.err += s),
    getOutHelpWidth: () => width,
    getErrHelpWidth: () => width,
  };
  const program = light ? rootHelpProgram(output) : buildProgram(() => Promise.resolve(), output);
  a.end = await program.parseAsync(line, { from: 'user' }).then(
    () => 'ran',
    (e: { code?: string }) => e.code ?? 'thrown',
  );
  return [a, program];
}

const ROOT_LINES = [
  ['--help'],
  ['-h'],
  [],
  ['--json', '--profile', 'work', '-h'],
  ['--base-url=http://x', '--help'],
];

describe('the root help', () => {
  it('is the whole program’s, byte for byte, at every width, though made with no command', async () => {
    for (const line of ROOT_LINES) {
      expect(isRootHelp(line), line.join(' ')).toBe(true);
      for (const width of [40, 80, 100, 132, 250]) {
        const [[whole], [light, program]] = await Promise.all([
          answer(line, width),
          answer(line, width, true),
        ]);
        expect(light, `${line.join(' ')} at ${width} columns`).toEqual(whole);
        // Stand-ins, not the commands: no options, no arguments, no subcommands, no action.
        expect(
          program.commands.flatMap((c) => [...c.options, ...c.registeredArguments, ...c.commands]),
        ).toEqual([]);
      }
    }
    const [help] = await answer(['--help'], 80);
    expect(help.out).toMatch(/^ {2}send \[options\] \[session\] \[message\.\.\.\] +post a follow-up/m);
    expect(help.end).toBe('commander.helpDisplayed');
  });

  it('lists each command by its head: name, synopsis and description as the command itself has them', async () => {
    const [, whole] = await answer([], 80);
    const help = whole.createHelp();
    const listed = help.visibleCommands(whole).map((c) => ({
      name: c.name(),
      term: help.subcommandTerm(c),
      description: help.subcommandDescription(c),
    }));
    const heads = HEADS.map((h) => ({
      name: h.name,
      term: [h.name, h.synopsis].filter(Boolean).join(' '),
      description: h.description,
    }));
    expect(heads).toEqual(listed);
  });

  it('is what main() prints, on a terminal of any width', async () => {
    for (const columns of [60, 120]) {
      const [[whole], run] = await Promise.all([
        answer(['--help'], columns),
        runMain(['--help'], { tty: { stdout: true, columns } }),
      ]);
      expect({ code: run.code, out: run.stdout, err: run.stderr }).toEqual({
        code: 0,
        out: whole.out,
        err: '',
      });
    }
  });

  it('is not what a line with a command, or another option, gets', () => {
    for (const line of [
      ['show'],
      ['help'],
      ['--help', 'show'],
      ['-V'],
      ['--bogus'],
      ['--profile', 'p', 'ls'],
    ])
      expect(isRootHelp(line), line.join(' ')).toBe(false);
  });
});
