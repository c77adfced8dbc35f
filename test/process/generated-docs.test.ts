// docs/commands.md and man/agents.1 are what `npm run docs` makes of the program as it is, and the man page
// renders every command without a warning from groff or from mandoc's linter (each skips where missing).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/program/program.js';
import { ROOT } from '../support/run-cli.js';
import { missing, titled } from '../support/tools.js';

const MAN = join(ROOT, 'man', 'agents.1');
const no = { groff: missing('groff'), mandoc: missing('mandoc') };

/** Every command the program shows in its help, as `agents config set` (hidden ones left out). */
function commandPaths(cmd: Command, path: string): string[] {
  const help = cmd.createHelp();
  const subs = help.visibleCommands(cmd).filter((sub) => cmd.commands.includes(sub));
  return subs.flatMap((sub) => [`${path} ${sub.name()}`, ...commandPaths(sub, `${path} ${sub.name()}`)]);
}

const program = buildProgram(() => Promise.resolve(), { writeOut: () => {}, writeErr: () => {} });
const commands = commandPaths(program, 'agents');

describe('the generated reference and man page', () => {
  it('are what `npm run docs` would write now (help, reference and man page cannot drift)', () => {
    const run = spawnSync(process.execPath, [join(ROOT, 'scripts', 'docs.mjs'), '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
  });

  it.skipIf(no.groff)(
    titled('man/agents.1 renders with groff -ww -man without a warning, and shows every command', no.groff),
    () => {
      // -P-cbou: grotty's plain text, with no bold or underline made of backspaces.
      const run = spawnSync('groff', ['-ww', '-man', '-Tutf8', '-P-cbou', MAN], { encoding: 'utf8' });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const lines = run.stdout.split('\n').map((l) => l.trim());
      expect(commands.length).toBeGreaterThan(15);
      for (const command of commands) expect(lines, command).toContain(command);
      // The markdown's code renders bold, as man pages show what is typed: no backtick is left to show
      // (groff prints one as a quote), and the text after a term keeps its space ("config: show …").
      expect(run.stdout).not.toMatch(/[`\u2018]/);
      expect(lines.filter((l) => l.startsWith('• config:'))[0]).toMatch(/^• config: +show +and +change/);
      expect(lines.filter((l) => /^• \S+:\S/.test(l))).toEqual([]);
    },
  );

  it('man/agents.1 sets code in bold, with no backtick left in its source', () => {
    const page = readFileSync(MAN, 'utf8');
    expect(page.split('\n').filter((l) => l.includes('`'))).toEqual([]);
    expect(page).toContain('\\fBconfig\\fP: show and change');
    expect(page).toContain('Docs: \\fBman agents\\fP (every command and option)');
  });

  it.skipIf(no.mandoc)(titled('man/agents.1 passes mandoc -Tlint with no warning', no.mandoc), () => {
    const run = spawnSync('mandoc', ['-Tlint', '-W', 'warning', MAN], { encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
