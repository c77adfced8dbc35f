// `npm run bench:acp`: how soon `agents acp` answers an editor that has just started it: from the spawn to
// the answer of `initialize`, and to the answer of `session/new` (sent right after), beside a bare
// `node -e 0` and `agents --help` started the same way in the same rounds, so that machine load hits them
// all alike. No service is needed: neither request sends anything (the key is a placeholder, never used).
// Options: --runs N (default 30), --warmup N (default 3).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const bin = fileURLToPath(new URL('../bin/agents.js', import.meta.url));
if (!existsSync(fileURLToPath(new URL('../dist/agents.js', import.meta.url)))) {
  console.error('dist/agents.js is missing: run `npm run bench:acp` (it builds first) or `npm run build`');
  process.exit(1);
}
const option = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const runs = option('--runs', 30);
const warmup = option('--warmup', 3);
const env = { ...process.env, AGENTS_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'agents-bench-acp-')) };
for (const k of Object.keys(env)) if (k.startsWith('AGENTS_') && k !== 'AGENTS_CONFIG_DIR') delete env[k];
Object.assign(env, { AGENTS_BASE_URL: 'http://127.0.0.1:9', AGENTS_API_KEY: 'bench-placeholder-key' });

const frame = (m) => `${JSON.stringify(m)}\n`;
const INIT = frame({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: 1, clientCapabilities: {}, clientInfo: { name: 'bench', version: '0' } },
});
const NEW = frame({ jsonrpc: '2.0', id: 2, method: 'session/new', params: { cwd: '/', mcpServers: [] } });

/** One server: ms from spawn to the initialize answer and to the session/new answer. */
function once() {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [bin, 'acp'], { env, stdio: ['pipe', 'pipe', 'inherit'] });
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
        if (id === 1) child.stdin.write(NEW);
        if (id === 2) child.stdin.end();
      }
    });
    child.on('error', reject);
    child.on('close', () => (at[2] ? resolve({ init: at[1], made: at[2] }) : reject(new Error('no answer'))));
    child.stdin.write(INIT);
  });
}

/** ms from spawn to the exit of `node …args` (the baselines: a bare Node, and `agents --help`). */
function exitAfter(args) {
  return new Promise((resolve) => {
    const t0 = performance.now();
    spawn(process.execPath, args, { env, stdio: 'ignore' }).on('close', () =>
      resolve(performance.now() - t0),
    );
  });
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return `median ${q(0.5).toFixed(0)} ms, p90 ${q(0.9).toFixed(0)} ms, max ${s.at(-1).toFixed(0)} ms`;
};

for (let i = 0; i < warmup; i++) await once();
const init = [];
const made = [];
const node = [];
const help = [];
for (let i = 0; i < runs; i++) {
  const r = await once();
  init.push(r.init);
  made.push(r.made);
  node.push(await exitAfter(['-e', '0']));
  help.push(await exitAfter([bin, '--help']));
}
const over = (xs) =>
  `+${(median(xs) - median(node)).toFixed(0)} ms, ${(median(xs) / median(node)).toFixed(2)}x`;
console.log(`agents acp on Node ${process.versions.node}, ${runs} runs (after ${warmup} warm-up):`);
console.log(`  initialize answered:   ${stats(init)} (${over(init)} node -e 0)`);
console.log(`  session/new answered:  ${stats(made)} (${over(made)})`);
console.log(`  agents --help:         ${stats(help)} (${over(help)})`);
console.log(`  node -e 0 (baseline):  ${stats(node)}`);
