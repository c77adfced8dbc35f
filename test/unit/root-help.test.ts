// The root help (`agents`, `agents --help`, `agents -h`: src/cli/help.ts) is made from the commands' heads, as
// the build reads them from the whole program (root.ts's headsOf, scripts/build.mjs), not from the
// commands: it must be the whole program's help, byte for byte, at any width, on stdout and (a line with
// no command) on stderr, so that the two can never drift. (test/process/startup.test.ts compares the built
// binary's with main()'s.)
import { describe, expect, it } from 'vitest';
import type { Command, OutputConfiguration } from 'commander';
import { buildProgram } from '../../src/cli/program/program.js';
import { headsOf, rootHelpProgram, type CommandHead } from '../../src/cli/program/root.js';
import { runMain } from '../support/main.js';

interface Answer {
  out: string;
  err: string;
  /** How the parse ended: commander's error code, or 'ran'. */
  end: string;
}

const whole = (output: OutputConfiguration) => buildProgram(() => Promise.resolve(), output);

/** The heads as dist/help.js has them: read from the whole program, through JSON (esbuild's `define`). */
const heads = JSON.parse(JSON.stringify(headsOf(whole({})))) as CommandHead[];

/** The answer to `line` of the root made from the heads (`light`, as help.ts makes it) or of the whole program. */
async function answer(line: string[], width: number, light = false): Promise<[Answer, Command]> {
  const a: Answer = { out: '', err: '', end: '' };
  const output: OutputConfiguration = {
    writeOut: (s) => void (a.out += s),
    writeErr: (s) => void (a.err += s),
    getOutHelpWidth: () => width,
    getErrHelpWidth: () => width,
  };
  const program = light ? rootHelpProgram(output, heads) : whole(output);
  a.end = await program.parseAsync(line, { from: 'user' }).then(
    () => 'ran',
    (e: { code?: string }) => e.code ?? 'thrown',
  );
  return [a, program];
}

/** The lines bin/agents.js answers from src/cli/help.ts. */
const ROOT_LINES = [['--help'], ['-h'], []];

describe('the root help', () => {
  it('is the whole program’s, byte for byte, at every width, though made with no command', async () => {
    for (const line of ROOT_LINES) {
      for (const width of [40, 80, 100, 132, 250]) {
        const [[full], [light, program]] = await Promise.all([
          answer(line, width),
          answer(line, width, true),
        ]);
        expect(light, `${line.join(' ')} at ${width} columns`).toEqual(full);
        // Stand-ins, not the commands: no options, no arguments, no subcommands.
        expect(
          program.commands.flatMap((c) => [...c.options, ...c.registeredArguments, ...c.commands]),
        ).toEqual([]);
      }
    }
    const [help] = await answer(['--help'], 80, true);
    expect(help.out).toMatch(/^ {2}send \[options\] \[session\] \[message\.\.\.\] +post a follow-up/m);
    expect(help.end).toBe('commander.helpDisplayed');
  });

  it('has a head for each command the help lists, in its order, and none for a hidden one', () => {
    expect(heads.map((h) => h.name)).toEqual(
      whole({})
        .commands.filter((c) => c.name() !== '__complete')
        .map((c) => c.name()),
    );
    expect(heads).toContainEqual({
      name: 'completion',
      term: 'completion <shell>',
      description: 'print a completion script for bash, zsh or fish',
    });
    expect(heads).toContainEqual(expect.objectContaining({ name: 'config', term: 'config' }));
  });

  it('is what main() prints with the whole program, on a terminal of any width', async () => {
    for (const columns of [60, 120]) {
      const [[light], run] = await Promise.all([
        answer(['--help'], columns, true),
        runMain(['--help'], { tty: { stdout: true, columns } }),
      ]);
      expect({ code: run.code, out: run.stdout, err: run.stderr }).toEqual({
        code: 0,
        out: light.out,
        err: '',
      });
    }
  });
});
