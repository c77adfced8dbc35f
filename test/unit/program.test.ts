// The commander program makes a command's options only when that command is used (dispatched, or its help
// shown): a run uses one command, and the others' options cost every run a share of a millisecond. What
// help prints must not change for it.
import { describe, expect, it } from 'vitest';
import type { Command } from 'commander';
import { buildProgram, defineAllOptions } from '../../src/cli/program.js';

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

describe('deferred options', () => {
  it('are made for the command that runs, and no other', async () => {
    const { program: p, ran } = program();
    for (const name of ['create', 'send', 'show', 'tail', 'chat', 'ls', 'emulator', 'login'])
      expect(options(p, name)).toEqual([]);
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
    // --no-pager's default (pager: true) is made with it.
    expect(p.commands.find((c) => c.name() === 'show')!.opts()).toEqual({
      limit: 5,
      tools: true,
      pager: true,
    });
    expect(options(p, 'create')).toEqual([]);
  });

  it('are in help as they were: [options] in the list, every option in `help create` and `create --help`', async () => {
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

    // With every option made, the program's help is the same text.
    const all = program();
    defineAllOptions(all.program);
    expect(options(all.program, 'create')).toContain('--agent-profile-file');
    await expect(all.program.parseAsync(['--help'], { from: 'user' })).rejects.toThrow();
    expect(all.out()).toBe(root.out());
  });
});
