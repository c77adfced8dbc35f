// `npm run bench:bounds`: what an answer may cost the built binary. Against the emulator's misbehaviours:
// the peak memory of `agents show` when the answer never ends (beside a bare `node -e 0` in the same run,
// and a show of an ordinary session), how long `show --timeout 3s` takes when the answer trickles, and the
// requests `show` makes on each way a server reads a repeated `role`.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RepeatedParams, type RunningEmulator } from '../../src/emulator/index.js';

const KEY = 'agents-dev-key';
const RUNS = 5;

interface Measured {
  code: number | null;
  ms: number;
  rssMb: number;
  stderr: string;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
}

export async function run(o: { root: string }): Promise<void> {
  const work = mkdtempSync(join(tmpdir(), 'agents-bench-bounds-'));
  const preload = join(work, 'rss.cjs');
  writeFileSync(
    preload,
    `process.on('exit', () => require('node:fs').writeSync(2, \`maxrss \${process.resourceUsage().maxRSS}\\n\`));`,
  );
  const bin = join(o.root, 'bin', 'agents.js');
  // Asynchronous: the emulator answers from this process, so a synchronous spawn would wait on itself.
  const exec = (args: string[], env: NodeJS.ProcessEnv) =>
    new Promise<{ code: number | null; stdout: string; stderr: string; ms: number }>((resolve) => {
      const started = performance.now();
      const child = spawn(process.execPath, args, {
        env: { ...process.env, AGENTS_CONFIG_DIR: work, AGENTS_API_KEY: KEY, ...env },
        stdio: ['ignore', 'pipe', 'pipe'],
        timeout: 120_000,
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
    });
  const measure = async (args: string[], env: NodeJS.ProcessEnv = {}): Promise<Measured> => {
    const r = await exec(['-r', preload, ...args], env);
    const rss = Number(/maxrss (\d+)/.exec(r.stderr)?.[1] ?? NaN) / 1024;
    return { code: r.code, ms: r.ms, rssMb: rss, stderr: r.stderr.replace(/maxrss \d+\n/, '') };
  };
  const em: RunningEmulator = await startEmulator({ port: 0, timeScale: 0.01, rateLimit: false });
  try {
    const env = { AGENTS_BASE_URL: em.url };
    const created = await fetch(`${em.url}/rest/v1/sessions`, {
      method: 'POST',
      headers: { authorization: `ApiKey ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ message: 'hello', agent_name: 'claude' }),
    });
    const { id } = (await created.json()) as { id: string };
    while (!em.messages(id).some((m) => m.type === 'final_message'))
      await new Promise((r) => setTimeout(r, 20));

    const rows: [string, Measured[]][] = [];
    const many = async (name: string, args: string[], extra: NodeJS.ProcessEnv = {}) => {
      const ms: Measured[] = [];
      for (let i = 0; i < RUNS; i++) ms.push(await measure(args, { ...env, ...extra }));
      rows.push([name, ms]);
    };
    await many('node -e 0 (baseline)', ['-e', '0']);
    await many('show (an ordinary session)', [bin, 'show', id, '--json']);
    em.setMisbehaviour({ endlessBody: 'session' });
    await many('show, the answer never ends', [bin, 'show', id]);
    em.setMisbehaviour({ trickle: { everyMs: 1000, route: 'session' } });
    await many('show --timeout 3s, the answer trickles', [bin, 'show', id, '--timeout', '3s']);
    em.setMisbehaviour(undefined);

    const base = median(rows[0]![1].map((m) => m.rssMb));
    console.log(
      `\nagents show against a server that answers badly (${RUNS} runs each, medians; Node ${process.version})\n`,
    );
    console.log('| case | exit | wall | peak RSS | RSS / node -e 0 |');
    console.log('| --- | --- | --- | --- | --- |');
    for (const [name, ms] of rows) {
      const rss = median(ms.map((m) => m.rssMb));
      const codes = [...new Set(ms.map((m) => m.code))].join(',');
      console.log(
        `| ${name} | ${codes} | ${(median(ms.map((m) => m.ms)) / 1000).toFixed(2)} s | ${rss.toFixed(1)} MB | ${(rss / base).toFixed(2)}x |`,
      );
    }
    const endless = rows[2]![1][0]!;
    console.log(`\nthe endless answer's line: ${endless.stderr.trim().split('\n')[0]}`);

    console.log('\nrequests of one `show --json` by how the server reads role=user&role=assistant\n');
    console.log('| server | requests | every message once, in order |');
    console.log('| --- | --- | --- |');
    for (const mode of ['all', 'first', 'last', 'reject'] as RepeatedParams[]) {
      em.setRepeatedParams(mode);
      em.resetStats();
      const r = await exec([bin, 'show', id, '--json'], env);
      const shown = (JSON.parse(r.stdout) as { messages: { id: string }[] }).messages.map((m) => m.id);
      const want = em
        .messages(id)
        .filter((m) => m.type !== 'tool_call')
        .map((m) => m.id);
      const ok = JSON.stringify(shown) === JSON.stringify(want);
      console.log(`| ${mode} | ${em.stats().requests} | ${ok ? 'yes' : 'NO'} |`);
    }
  } finally {
    await em.close();
    rmSync(work, { recursive: true, force: true });
  }
}
