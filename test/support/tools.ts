// Programs some tests drive that a machine may lack. Where one is missing, those tests skip and their title
// names it; under AGENTS_TEST_REQUIRE_TOOLS=1 (.ci/run, after installing them) a missing one fails the run.
import { spawnSync } from 'node:child_process';

/** Each program, and how to get it on Debian. */
const INSTALL = {
  bash: 'bash',
  dash: 'dash',
  zsh: 'zsh',
  fish: 'fish',
  tmux: 'tmux',
  script: 'bsdutils',
  less: 'less',
  'redis-server': 'redis-server',
  'valkey-server': 'valkey-server (Debian 12: from bookworm-backports)',
  groff: 'groff-base',
  mandoc: 'mandoc',
  openssl: 'openssl',
  'dbus-daemon': 'dbus',
  'gnome-keyring-daemon': 'gnome-keyring',
} as const;

export type Tool = keyof typeof INSTALL;

const found = new Map<Tool, boolean>();

function present(tool: Tool): boolean {
  let yes = found.get(tool);
  if (yes === undefined) {
    yes = spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0;
    found.set(tool, yes);
  }
  return yes;
}

/**
 * Why tests needing `tools` cannot run here (e.g. "needs zsh: apt-get install zsh"), or undefined when they
 * can. Throws where a missing program must fail the run instead (AGENTS_TEST_REQUIRE_TOOLS=1).
 */
export function missing(...tools: Tool[]): string | undefined {
  const absent = tools.filter((t) => !present(t));
  if (absent.length === 0) return undefined;
  const reason = `needs ${absent.join(', ')}: apt-get install ${absent.map((t) => INSTALL[t]).join(' ')}`;
  if (process.env.AGENTS_TEST_REQUIRE_TOOLS === '1') {
    throw new Error(`${reason} (AGENTS_TEST_REQUIRE_TOOLS=1: a missing program fails the run)`);
  }
  return reason;
}

/** A test's or suite's title, with why it is skipped where it is. */
export function titled(title: string, reason: string | undefined): string {
  return reason === undefined ? title : `${title} (skipped: ${reason})`;
}
