// The commander program: a command line becomes the command that runs and its typed options, and help
// lists every command and option.
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram } from '../../src/program/program.js';

const U = '0b5e8f3c-1d2a-4c3b-9e8f-7a6b5c4d3e2f';

/** A program whose actions record the command that ran instead of running it. */
function program(): { program: Command; out: () => string; ran: string[] } {
  let out = '';
  const ran: string[] = [];
  const p = buildProgram(
    (cmd) => {
      ran.push(cmd.name());
      return Promise.resolve();
    },
    { writeOut: (s) => void (out += s), writeErr: (s) => void (out += s), getOutHelpWidth: () => 100 },
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
});
