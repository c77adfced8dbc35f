// The commander program: a command line becomes the command that runs and its typed options, and help
// lists every command and option.
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/program/program.js';

const U = '0b5e8f3c-1d2a-4c3b-9e8f-7a6b5c4d3e2f';

/**
 * A program whose actions record the command that ran instead of running it; given the command line, built
 * for it as main() builds it (the command it names alone).
 */
function program(argv?: string[]): { program: Command; out: () => string; ran: string[] } {
  let out = '';
  const ran: string[] = [];
  const p = buildProgram(
    (cmd) => {
      ran.push(cmd.name());
      return Promise.resolve();
    },
    { writeOut: (s) => void (out += s), writeErr: (s) => void (out += s), getOutHelpWidth: () => 100 },
    argv,
  );
  return { program: p, out: () => out, ran };
}

const options = (p: Command, name: string) =>
  p.commands.find((c) => c.name() === name)!.options.map((o) => o.long);

describe('the program', () => {
  it('runs the command given, with its options parsed', async () => {
    const { program: p, ran } = program();
    await p.parseAsync(['show', U, '--limit', '5', '--tools'], { from: 'user' });
    expect(ran).toEqual(['show']);
    expect(options(p, 'show')).toEqual([
      '--thread',
      '--tools',
      '--limit',
      '--all',
      '--verbose',
      '--no-pager',
      '--web',
      '--timeout',
    ]);
    // --no-pager's default (pager: true) is there too.
    expect(p.commands.find((c) => c.name() === 'show')!.opts()).toEqual({
      limit: 5,
      tools: true,
      pager: true,
    });
  });

  it('lists every command in help, and every option in `help create` and `create --help`', async () => {
    const root = program();
    await expect(root.program.parseAsync(['--help'], { from: 'user' })).rejects.toThrow();
    expect(root.out()).toMatch(/^ {2}create \[options\] \[message\.\.\.\] +create a session/m);
    expect(root.out()).toMatch(/^ {2}logout +remove the API key/m);

    for (const args of [
      ['help', 'create'],
      ['create', '--help'],
    ]) {
      const { program: p, out } = program();
      await expect(p.parseAsync(args, { from: 'user' })).rejects.toThrow();
      expect(out()).toContain('--agent-profile-file <file>');
      expect(out()).toContain('-o, --output <file>');
    }
  });

  it('built for a command line, answers it as the whole program does, with the command it runs alone', async () => {
    const lines = [
      ['show', U, '--limit', '5'],
      ['show', '--help'],
      ['show', 'not-a-session'],
      ['show', U, '--limit', '0'],
      ['show', U, '--bogus'],
      ['--json', '--profile', 'work', 'show', U],
      ['--base-url=http://127.0.0.1:1', '-q', 'send', U, 'hi', '--wait'],
      ['create', '-a', 'nobody', 'hi'],
      ['config', 'get', 'nothing'],
      ['--help', 'show'],
      ['help', 'show'],
      ['lst'],
      ['--bogus', 'show'],
      ['completion', 'bash'],
      [],
    ];
    const built: number[] = [];
    for (const line of lines) {
      const [whole, alone] = [program(), program(line)];
      const answers = await Promise.all(
        [whole, alone].map(({ program: p }) =>
          p.parseAsync(line, { from: 'user' }).then(
            () => 'ran',
            (e: Error) => e.message,
          ),
        ),
      );
      expect({ line, answer: answers[1], out: alone.out(), ran: alone.ran }).toEqual({
        line,
        answer: answers[0],
        out: whole.out(),
        ran: whole.ran,
      });
      built.push(alone.program.commands.length);
    }
    // The lines that run one command made it alone; help, a typo, an option first and completion made all.
    const all = program().program.commands.length;
    expect(built).toEqual([...Array<number>(9).fill(1), ...Array<number>(6).fill(all)]);
  });
});
