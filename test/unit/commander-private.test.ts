// What we rely on of commander's private parts (src/cli/commands/commander-private.ts): a commander upgrade that
// renames unknownCommand, stops calling it for an unknown subcommand, or changes what it reports fails here.
import { describe, expect, it } from 'vitest';
import { Command, CommanderError } from 'commander';
import {
  answerUnknownCommand,
  failUnknownCommand,
} from '../../src/cli/commands/options/commander-private.js';

/** A program with two commands whose errors are thrown (not printed and exited on). */
function program(): Command {
  const p = new Command('agents').exitOverride().configureOutput({ writeErr: () => undefined });
  p.command('create').action(() => undefined);
  p.command('show').action(() => undefined);
  return p;
}

/** The CommanderError `run` throws. */
function thrown(run: () => unknown): CommanderError {
  try {
    run();
  } catch (err) {
    if (err instanceof CommanderError) return err;
    throw err;
  }
  throw new Error('nothing was thrown');
}

describe("commander's unknownCommand, as we use it", () => {
  it('is a method of every command', () => {
    expect(typeof (Command.prototype as unknown as Record<string, unknown>).unknownCommand).toBe('function');
  });

  it('reports the name given as an unknown command, with commander’s suggestion', () => {
    const err = thrown(() => failUnknownCommand(program(), 'crate'));
    expect(err.code).toBe('commander.unknownCommand');
    expect(err.exitCode).toBe(1);
    expect(err.message).toBe("error: unknown command 'crate'\n(Did you mean create?)");
  });

  it('is what parsing an unknown subcommand calls: our answer first, else commander’s own', () => {
    const p = program();
    answerUnknownCommand(p, (name) =>
      name === 'logs' ? "error: unknown command 'logs'\n(Did you mean show?)" : undefined,
    );
    const ours = thrown(() => p.parse(['logs'], { from: 'user' }));
    expect(ours.code).toBe('commander.unknownCommand');
    expect(ours.message).toBe("error: unknown command 'logs'\n(Did you mean show?)");
    const builtIn = thrown(() => p.parse(['crate'], { from: 'user' }));
    expect(builtIn.message).toBe("error: unknown command 'crate'\n(Did you mean create?)");
    // The help command's path goes through the override too.
    expect(thrown(() => failUnknownCommand(p, 'logs')).message).toContain('Did you mean show?');
  });
});
