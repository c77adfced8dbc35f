// `npm run docs`: writes docs/commands.md and man/agents.1 from the program's own commander tree
// (buildProgram in src/cli/program/program.ts, bundled by esbuild: from-sources.mjs; scripts/docs/reference.ts reads it), the man
// page through marked-man's own command, so that --help, the reference and the man page never disagree.
// `--check`: writes nothing, and exits 1 naming each file that differs from what would be written
// (test/process/generated-docs.test.ts runs it). The output depends on the source alone: the man page's date is fixed
// (MAN_DATE), and its version is package.json's.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fromSources } from './from-sources.mjs';

// The month the man page's header shows: a date that changed on every run would make the check fail each
// month. Move it forward with a release (with package.json's version), then run `npm run docs`.
const MAN_DATE = '2026-11-01';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const check = process.argv.includes('--check');

/** The reference's two markdown documents, from the program as the sources declare it now. */
function markdown() {
  return fromSources(
    "export { buildProgram } from './src/cli/program/program.ts';\nexport { reference } from './scripts/docs/reference.ts';",
    ({ buildProgram, reference }) => {
      const program = buildProgram(
        () => Promise.resolve(),
        // Help is never printed here: the reference reads the tree, not commander's wrapped text.
        { writeOut: () => {}, writeErr: () => {} },
      );
      return reference(program, pkg.version);
    },
  );
}

/** The man page: the markdown through marked-man's command (its documented interface), in roff. */
function roff(source) {
  const require = createRequire(import.meta.url);
  const manPkgPath = require.resolve('marked-man/package.json');
  const bin = join(dirname(manPkgPath), JSON.parse(readFileSync(manPkgPath, 'utf8')).bin['marked-man']);
  const args = ['--version', `${pkg.name.replace(/-cli$/, '')} ${pkg.version}`, '--date', MAN_DATE];
  args.push('--manual', 'User Commands');
  const run = spawnSync(process.execPath, [bin, ...args], { input: source, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`marked-man failed: ${run.stderr}`);
  return tidy(run.stdout);
}

/**
 * Three things of marked-man's output that `mandoc -Tlint` or `groff -ww` warn about, put right: its
 * "November 2026" date becomes the ISO one man-pages(7) asks for, a paragraph macro straight after a
 * heading (which does nothing) goes, and each character beyond ASCII is written as groff's \[uXXXX] escape
 * (what preconv does for `man`; plain groff reads bytes). And a `code span` in the text a command prints
 * after its help (a block marked-man copies as it is, since markdown reads nothing inside one) is set in
 * bold, as marked-man sets the markdown's own: a man page shows no backticks.
 */
function tidy(page) {
  return page
    .replace(/^(\.TH "[^"]*" "[^"]*" )"[^"]*"/m, `$1"${MAN_DATE}"`)
    .replace(/^(\.S[HS] .*\n)\.P\n/gm, '$1')
    .replace(/^\.nf\n[^]*?^\.fi$/gm, (block) => block.replace(/`([^`\n]+)`/g, '\\fB$1\\fP'))
    .replace(/\P{ASCII}/gu, (c) => `\\[u${c.codePointAt(0).toString(16).toUpperCase().padStart(4, '0')}]`);
}

const { markdown: commands, man } = await markdown();
const files = { 'docs/commands.md': commands, 'man/agents.1': roff(man) };
let stale = 0;
for (const [file, content] of Object.entries(files)) {
  const path = join(root, file);
  let current;
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    current = undefined;
  }
  if (current === content) continue;
  if (check) {
    process.stderr.write(`${file} differs from what the program says: run \`npm run docs\` and commit it\n`);
    stale += 1;
  } else {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, content);
    process.stdout.write(`wrote ${file}\n`);
  }
}
process.exitCode = stale > 0 ? 1 : 0;
