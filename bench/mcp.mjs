// `npm run bench:mcp`: how soon `agents mcp` answers a client that has just started it: from the spawn to
// the answer of `initialize`, and to the answer of `tools/list` (sent right after `initialized`), beside a
// bare `node -e 0` and `agents --help` started the same way in the same rounds, so that machine load
// hits them all alike. No key or service is needed: neither request sends anything. Options: --runs N (default 30), --warmup N (default 3).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const bin = fileURLToPath(new URL('../bin/agents.js', import.meta.url));
if (!existsSync(fileURLToPath(new URL('../dist/agents.js', import.meta.url)))) {
  console.error('dist/agents.js is missing: run `npm run bench:mcp` (it builds first) or `npm run build`');
  process.exit(1);
}
const option = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const runs = option('--runs', 30);
const warmup = option('--warmup', 3);
const env = { ...process.env, AGENTS_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'agents-bench-mcp-')) };
for (const k of Object.keys(env)) if (k.startsWith('AGENTS_') && k !== 'AGENTS_CONFIG_DIR') delete env[k];

const frame = (m) => `${JSON.stringify(m)}\n`;
const INIT = frame({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '0' } },
});
const LIST =
  frame({ jsonrpc: '2.0', method: 'notifications/initialized' }) +
  frame({ jsonrpc: '2.0', id: 2, method: 'tools/list' });

/** One server: ms from spawn to the initialize answer and to the tools/list answer. */
function once() {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [bin, 'mcp'], { env, stdio: ['pipe', 'pipe', 'inherit'] });
    const at = {};
    let buffered = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      buffered += chunk;
      let nl;
      while ((nl = buffered.indexOf('\n')) !== -1) {
        const { id } = JSON.parse(buffered.slice(0, nl));
        buffered = buffered.slice(nl + 1);
        at[id] = performance.now() - t0;
        if (id === 1) child.stdin.write(LIST);
        if (id === 2) child.stdin.end();
      }
    });
    child.on('error', reject);
    child.on('close', () => (at[2] ? resolve({ init: at[1], list: at[2] }) : reject(new Error('no answer'))));
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

const stats = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return `median ${q(0.5).toFixed(0)} ms, p90 ${q(0.9).toFixed(0)} ms, max ${s.at(-1).toFixed(0)} ms`;
};

for (let i = 0; i < warmup; i++) await once();
const init = [];
const list = [];
const node = [];
const help = [];
for (let i = 0; i < runs; i++) {
  const r = await once();
  init.push(r.init);
  list.push(r.list);
  node.push(await exitAfter(['-e', '0']));
  help.push(await exitAfter([bin, '--help']));
}
console.log(`agents mcp on Node ${process.versions.node}, ${runs} runs (after ${warmup} warm-up):`);
console.log(`  initialize answered:  ${stats(init)}`);
console.log(`  tools/list answered:  ${stats(list)}`);
console.log(`  agents --help:        ${stats(help)}`);
console.log(`  node -e 0 (baseline): ${stats(node)}`);
