// What `npm run bench:mcp` and `npm run bench:acp` share: how soon a command that serves JSON-RPC on stdio
// (`agents mcp`, `agents acp`) answers a client that has just started it, from the spawn to the answer of
// request 1 and of request 2 (sent once 1 is answered), beside a bare `node -e 0` and `agents --help`
// started the same way in the same rounds, so that machine load hits them all alike.
// Options of both benches: --runs N (default 30), --warmup N (default 3).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const bin = fileURLToPath(new URL('../bin/agents.js', import.meta.url));

/** One JSON-RPC message as the stdio transports of both SDKs frame it: a line of JSON. */
export const frame = (m) => `${JSON.stringify(m)}\n`;

const option = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return `median ${q(0.5).toFixed(0)} ms, p90 ${q(0.9).toFixed(0)} ms, max ${s.at(-1).toFixed(0)} ms`;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * Runs the bench of `agents <command>` and prints it: `first` is written at the spawn, `second` once
 * request 1 is answered, and stdin ends once request 2 is; `names` label the two answers. `extraEnv` goes
 * into a clean environment (no AGENTS_* of the caller's, a config directory of its own).
 */
export async function benchStdioServer({ command, first, second, names, extraEnv = {} }) {
  if (!existsSync(fileURLToPath(new URL('../dist/agents.js', import.meta.url)))) {
    console.error(
      `dist/agents.js is missing: run \`npm run bench:${command}\` (it builds first) or \`npm run build\``,
    );
    process.exit(1);
  }
  const runs = option('--runs', 30);
  const warmup = option('--warmup', 3);
  const env = { ...process.env, AGENTS_CONFIG_DIR: mkdtempSync(join(tmpdir(), `agents-bench-${command}-`)) };
  for (const k of Object.keys(env)) if (k.startsWith('AGENTS_') && k !== 'AGENTS_CONFIG_DIR') delete env[k];
  Object.assign(env, extraEnv);

  /** One server: ms from spawn to the answers of requests 1 and 2. */
  const once = () =>
    new Promise((resolve, reject) => {
      const t0 = performance.now();
      const child = spawn(process.execPath, [bin, command], { env, stdio: ['pipe', 'pipe', 'inherit'] });
      const at = {};
      let buffered = '';
      child.stdout.setEncoding('utf8').on('data', (chunk) => {
        buffered += chunk;
        let nl;
        while ((nl = buffered.indexOf('\n')) !== -1) {
          const { id, error } = JSON.parse(buffered.slice(0, nl));
          buffered = buffered.slice(nl + 1);
          if (error) reject(new Error(error.message));
          at[id] = performance.now() - t0;
          if (id === 1) child.stdin.write(second);
          if (id === 2) child.stdin.end();
        }
      });
      child.on('error', reject);
      child.on('close', () => (at[2] ? resolve([at[1], at[2]]) : reject(new Error('no answer'))));
      child.stdin.write(first);
    });

  /** ms from spawn to the exit of `node …args` (the baselines). */
  const exitAfter = (args) =>
    new Promise((resolve) => {
      const t0 = performance.now();
      spawn(process.execPath, args, { env, stdio: 'ignore' }).on('close', () =>
        resolve(performance.now() - t0),
      );
    });

  for (let i = 0; i < warmup; i++) await once();
  const [one, two, node, help] = [[], [], [], []];
  for (let i = 0; i < runs; i++) {
    const [a, b] = await once();
    one.push(a);
    two.push(b);
    node.push(await exitAfter(['-e', '0']));
    help.push(await exitAfter([bin, '--help']));
  }
  const over = (xs) =>
    `+${(median(xs) - median(node)).toFixed(0)} ms, ${(median(xs) / median(node)).toFixed(2)}x`;
  const label = (s) => `${s}:`.padEnd(24);
  console.log(`agents ${command} on Node ${process.versions.node}, ${runs} runs (after ${warmup} warm-up):`);
  console.log(`  ${label(`${names[0]} answered`)}${stats(one)} (${over(one)} node -e 0)`);
  console.log(`  ${label(`${names[1]} answered`)}${stats(two)} (${over(two)})`);
  console.log(`  ${label('agents --help')}${stats(help)} (${over(help)})`);
  console.log(`  ${label('node -e 0 (baseline)')}${stats(node)}`);
}
