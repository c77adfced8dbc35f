// agents completion bash|zsh|fish, run by the shells themselves: the built binary on PATH as `agents`, the
// script loaded, and the completions a Tab would offer read back. bash through its completion variables,
// zsh with its completion builtins replaced by functions that print what they are given, fish through
// `complete -C`. Session ids come from the state file of a session created beforehand.
import { beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixture } from '../support/fixture.js';
import { BIN, cliEnv, runCli } from '../support/run-cli.js';
import { CORE_AGENTS } from '../../src/core/api/types.js';
import { missing, titled } from '../support/tools.js';

/** Each shell is driven only where it is installed (a missing one fails under AGENTS_TEST_REQUIRE_TOOLS=1). */
const no = { bash: missing('bash'), zsh: missing('zsh'), fish: missing('fish') };

const dir = mkdtempSync(join(tmpdir(), 'agents-completion-'));
const shim = join(dir, 'agents');
writeFileSync(shim, `#!/bin/sh\nexec '${process.execPath}' '${BIN}' "$@"\n`);
chmodSync(shim, 0o755);

let env: NodeJS.ProcessEnv;
let ids: { default: string; work: string };
const files = { bash: join(dir, 'agents.bash'), zsh: join(dir, '_agents'), fish: join(dir, 'agents.fish') };

beforeAll(async () => {
  const f = await fixture();
  const a = await f.run(['create', '-a', 'claude', 'Fix the flaky parser test']);
  const b = await f.run(['--profile', 'work', 'create', '-a', 'codex', 'Work session']);
  ids = { default: a.stdout.trim(), work: b.stdout.trim() };
  // The completion scripts need neither the service nor a key; the base URL says whose sessions they offer
  // (those made against another service would be "not found" on this one).
  env = cliEnv({
    AGENTS_CONFIG_DIR: f.env.AGENTS_CONFIG_DIR,
    AGENTS_BASE_URL: f.em.url,
    PATH: `${dir}:${process.env.PATH ?? ''}`,
  });
  for (const shell of ['bash', 'zsh', 'fish'] as const) {
    const r = await runCli(['completion', shell], { env, closeStdin: true });
    expect(r.code, r.stderr).toBe(0);
    writeFileSync(files[shell], r.stdout);
  }
});

/** Runs `shell` on `input` and returns its output, in blocks separated by lines of "---". */
async function blocks(shell: string, args: string[], input: string): Promise<string[][]> {
  const child = spawn(shell, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  child.stdin.end(input);
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  expect(code, err).toBe(0);
  return out
    .split('---\n')
    .slice(0, -1)
    .map((b) => b.split('\n').filter(Boolean));
}

const q = (words: string[]) => words.map((w) => `'${w}'`).join(' ');

/** What bash offers for each command line (words; the last one is being completed). */
function bash(cases: string[][]): Promise<string[][]> {
  const body = cases
    .map(
      (words) => `COMP_WORDS=(${q(words)}); COMP_CWORD=${words.length - 1}; _agents
printf '%s\\n' "\${COMPREPLY[@]}"; echo ---`,
    )
    .join('\n');
  return blocks('bash', ['--norc', '--noprofile'], `source ${files.bash}\n${body}\n`);
}

/** What zsh's _agents hands to _describe / compadd / _files for each command line. */
function zsh(cases: string[][]): Promise<string[][]> {
  const body = cases
    .map((words) => `words=(${q(words)}); CURRENT=${words.length}; _agents; echo ---`)
    .join('\n');
  return blocks(
    'zsh',
    ['-f'],
    `compdef() { :; }
_describe() { local arr=$3; [[ $1 == -t ]] && arr=$4; print -rl -- "\${(@)\${(P)arr}%%:*}"; }
compadd() { [[ $1 == -a ]] && print -rl -- "\${(@P)2}"; }
_files() { print -r -- '<files>'; }
source ${files.zsh}
${body}
`,
  );
}

/** What fish offers for each command line (`complete -C`), words only. */
async function fish(lines: string[]): Promise<string[][]> {
  // fish reads a script from a file (not from a pipe).
  const cases = join(dir, 'cases.fish');
  const body = lines.map((l) => `complete -C '${l}'; echo ---`).join('\n');
  writeFileSync(cases, `source ${files.fish}\n${body}\n`);
  const out = await blocks('fish', ['--no-config', cases], '');
  return out.map((b) => b.map((l) => l.split('\t')[0]!));
}

const COMMANDS = [
  'config',
  'login',
  'logout',
  'emulator',
  'create',
  'send',
  'show',
  'tail',
  'wait',
  'chat',
  'plan',
  'artifact',
];
// `help` is a command of ours (commander's own printed the whole help for a command it did not know).
const ALL = [...COMMANDS, 'ls', 'open', 'checkout', 'diff', 'budget', 'mcp', 'acp', 'completion', 'help'];

describe.concurrent('completion scripts', () => {
  it.skipIf(no.bash)(
    titled('bash: commands, options, agent names, session ids, config keys, shells', no.bash),
    async () => {
      const cases: [string[], string[]][] = [
        [['agents', ''], ALL],
        [['agents', 'cr'], ['create']],
        [['agents', 'create', '-a', ''], [...CORE_AGENTS]],
        [
          ['agents', 'create', '--ag'],
          ['--agent', '--agent-id', '--agent-profile', '--agent-profile-file'],
        ],
        [
          ['agents', 'show', '--no'],
          ['--no-pager', '--no-color'],
        ],
        [
          ['agents', 'send', ''],
          ['last', ids.default],
        ],
        [
          ['agents', '--profile', 'work', 'show', ''],
          ['last', ids.work],
        ],
        // A session is the first argument only; an option's value is not an argument.
        [
          ['agents', 'show', '--thread', 'x', ''],
          ['last', ids.default],
        ],
        [['agents', 'send', ids.default, ''], []],
        // wait takes any number of sessions: every position completes to one.
        [
          ['agents', 'wait', ids.default, ''],
          ['last', ids.default],
        ],
        [
          ['agents', 'config', ''],
          ['list', 'get', 'set', 'unset', 'path'],
        ],
        [
          ['agents', 'config', 'get', ''],
          ['api-key', 'base-url', 'agent', 'budget-url', 'notify'],
        ],
        [
          ['agents', 'completion', ''],
          ['bash', 'zsh', 'fish'],
        ],
        [['agents', 'send', '--file', join(dir, 'agents.ba')], [files.bash]],
      ];
      expect(await bash(cases.map((c) => c[0]))).toEqual(cases.map((c) => c[1]));
    },
  );

  it.skipIf(no.zsh)(titled('zsh: the same, with descriptions for _describe', no.zsh), async () => {
    const cases: [string[], string[]][] = [
      [['agents', ''], ALL],
      [['agents', 'create', '--agent', ''], [...CORE_AGENTS]],
      [
        ['agents', 'tail', ''],
        ['last', ids.default],
      ],
      [
        ['agents', 'wait', 'last', ''],
        ['last', ids.default],
      ],
      [
        ['agents', '--profile', 'work', 'open', ''],
        ['last', ids.work],
      ],
      [
        ['agents', 'config', 'set', ''],
        ['api-key', 'base-url', 'agent', 'budget-url', 'notify'],
      ],
      [['agents', 'create', '--file', ''], ['<files>']],
      [
        ['agents', 'completion', ''],
        ['bash', 'zsh', 'fish'],
      ],
    ];
    expect(await zsh(cases.map((c) => c[0]))).toEqual(cases.map((c) => c[1]));
    const [ls] = await zsh([['agents', 'ls', '--']]);
    expect(ls).toContain('--refresh');
  });

  it.skipIf(no.fish)(titled('fish: the same, through complete -C', no.fish), async () => {
    const sorted = (xs: string[]) => [...xs].sort();
    const got = await fish([
      'agents ',
      'agents create -a ',
      'agents show ',
      'agents --profile work show ',
      'agents config get ',
      'agents ls --re',
      'agents wait last ',
    ]);
    expect(got.map((b, i) => (i === 2 || i === 3 || i === 6 ? b : sorted(b)))).toEqual([
      sorted(ALL),
      sorted([...CORE_AGENTS]),
      ['last', ids.default],
      ['last', ids.work],
      ['agent', 'api-key', 'base-url', 'budget-url', 'notify'],
      ['--refresh'],
      ['last', ids.default],
    ]);
  });

  it('agents __complete sessions reads the state file alone: no key, no service; hidden from help', async () => {
    const r = await runCli(['__complete', 'sessions'], { env, closeStdin: true });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${ids.default}\tFix the flaky parser test\n`);
    const help = await runCli(['--help'], { env, closeStdin: true });
    expect(help.stdout).not.toContain('__complete');
  });
});
