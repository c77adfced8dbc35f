// Every command of an installed `agents` (the npm package installed from its tarball, or the one-file
// executable) run once as a user runs it, each loading its own chunk of dist/: the emulator the others
// talk to is the installed program's own, and each command must end as the contract says it does there.
// What an install can break is a file it lacks or a module it cannot resolve, which fails a command as it
// loads, so each command is run once, not tested: their behaviour is tested in-process elsewhere.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { expect } from 'vitest';
import { KEY } from './key.js';
import { cliEnv, runCli, type CliResult } from './run-cli.js';

/** An `agents` to run: the program and the arguments before the command's (e.g. `[node, bin/agents.js]`). */
export type Installed = readonly [string, ...string[]];

/** One initialize, the notification and a tools/list: `agents mcp` answers both and ends at EOF. */
const MCP_INPUT = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 2, method: 'tools/list' },
]
  .map((m) => `${JSON.stringify(m)}\n`)
  .join('');

/** Starts the installed program's emulator on a free port; resolves to its URL and a stop function. */
async function startEmulator(agents: Installed, env: NodeJS.ProcessEnv) {
  const [command, ...pre] = agents;
  const child = spawn(command, [...pre, 'emulator', '--port', '0'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the emulator exited with ${code}: ${stderr}`)));
  });
  return { url, stop: () => void child.kill() };
}

/**
 * Runs every command of `agents` against its own emulator and checks each ends as it should: the exit code,
 * and a line of what it prints. `version` is what `--version` must print; `extra` goes into the environment
 * (a PATH without node, say).
 */
export async function runEveryCommand(
  agents: Installed,
  version: string,
  extra: NodeJS.ProcessEnv = {},
): Promise<void> {
  const env = cliEnv({ AGENTS_API_KEY: KEY, DISPLAY: '', WAYLAND_DISPLAY: '', ...extra });
  const em = await startEmulator(agents, env);
  try {
    env.AGENTS_BASE_URL = em.url;
    const run = (args: string[], input?: string) =>
      runCli(args, { command: agents, env, ...(input === undefined ? { closeStdin: true } : { input }) });
    const ok = (r: CliResult, what: string) => {
      expect(r.stderr, what).not.toMatch(/ERR_MODULE_NOT_FOUND|ERR_REQUIRE_|Cannot find (module|package)/);
      return r;
    };
    expect(ok(await run(['--version']), '--version').stdout.trim()).toBe(version);
    const created = ok(await run(['create', '-a', 'claude', 'hello']), 'create');
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    // The follow-up before the rest: a wait that read the first turn as the latest before it landed would
    // wait on a turn the follow-up interrupted, which never ends.
    const sent = ok(await run(['send', id, 'again']), 'send');
    expect(sent.code, sent.stderr).toBe(0);
    expect(sent.stdout).toMatch(new RegExp(`^${id}/`));
    // [args, exit code, what stdout or stderr shows]
    const cases: [string[], number, RegExp, string?][] = [
      [['show', id, '--json'], 0, new RegExp(`"id":\\s*"${id}"`)],
      [['wait', id], 0, /finished/],
      [['tail', id, '--until-final'], 0, /finished/],
      [['plan', id], 4, /has no plan/],
      [['artifact', id, '00000000-0000-4000-8000-000000000000'], 4, /has no artifact/],
      [['ls'], 0, new RegExp(id)],
      [['config', 'list'], 0, /base-url/],
      [['open', id], 0, new RegExp(`/app/sessions/${id}`)],
      // chat's module and all it imports load before it finds no terminal.
      [['chat', id], 2, /chat needs a terminal/],
      [['completion', 'bash'], 0, /complete -/],
      [['mcp'], 0, /"create_session"/, MCP_INPUT],
    ];
    const results = await Promise.all(
      cases.map(async ([args, code, shows, input]) => ({ args, code, shows, r: await run(args, input) })),
    );
    for (const { args, code, shows, r: result } of results) {
      const r = ok(result, args.join(' '));
      expect({ args, code: r.code }, r.stderr).toEqual({ args, code });
      expect(r.stdout + r.stderr, args.join(' ')).toMatch(shows);
    }
    // The profile's key: stored from stdin, then removed.
    const login = ok(await run(['login', '--with-key', '--base-url', em.url], KEY), 'login');
    expect(login.code, login.stderr).toBe(0);
    const logout = ok(await run(['logout']), 'logout');
    expect(logout.code, logout.stderr).toBe(0);
  } finally {
    em.stop();
  }
}
