// Start-up cost of the built CLI against a bare `node -e 0`, measured in the same process, interleaved so
// that drift in machine load hits every command alike. `npm run bench` builds first, then runs this.
// Options: --runs N (default 40), --warmup N (default 5). A lone --help not on a terminal prints the
// help that the build saved (bin/agents.js); `agents help` and `create --help` show the cost of commander.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/agents.js', import.meta.url));
if (!existsSync(fileURLToPath(new URL('../dist/cli.js', import.meta.url)))) {
  console.error('dist/cli.js is missing: run `npm run bench` (it builds first) or `npm run build`');
  process.exit(1);
}

function option(name, fallback) {
  const i = process.argv.indexOf(name);
  const value = i === -1 ? fallback : Number(process.argv[i + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} needs a positive integer`);
  return value;
}
const runs = option('--runs', 40);
const warmup = option('--warmup', 5);

const cases = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'agents --version', args: [bin, '--version'] },
  { name: 'agents --help', args: [bin, '--help'] },
  // The same help through commander (dist/cli.cjs, parse only), as a terminal or any other help gets it.
  { name: 'agents help', args: [bin, 'help'] },
  { name: 'agents create --help', args: [bin, 'create', '--help'] },
];

// No colour, no CI quirks, nothing inherited that could change what the CLI does at start-up.
const env = { PATH: process.env.PATH, HOME: process.env.HOME, NO_COLOR: '1' };

/** Runs one case once; returns wall-clock milliseconds. */
function time(c) {
  const start = process.hrtime.bigint();
  const r = spawnSync(process.execPath, c.args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0) throw new Error(`${c.name} exited ${r.status}: ${r.stderr}`);
  return ms;
}

function quantile(sorted, q) {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

// Warm-up: fills the OS file cache and Node's compile cache (where this Node has one) for every case.
for (let i = 0; i < warmup; i++) for (const c of cases) time(c);

const samples = new Map(cases.map((c) => [c.name, []]));
for (let i = 0; i < runs; i++) {
  // Rotate the order each round so no case always runs right after the same neighbour.
  for (let j = 0; j < cases.length; j++) {
    const c = cases[(i + j) % cases.length];
    samples.get(c.name).push(time(c));
  }
}

const baseline = quantile(
  [...samples.get('node -e 0')].sort((a, b) => a - b),
  0.5,
);
console.log(`node ${process.version}, ${runs} runs each after ${warmup} warm-up rounds, interleaved\n`);
console.log(`${'command'.padEnd(24)}${'median'.padStart(10)}${'p90'.padStart(10)}${'ratio'.padStart(9)}`);
for (const c of cases) {
  const sorted = [...samples.get(c.name)].sort((a, b) => a - b);
  const median = quantile(sorted, 0.5);
  const p90 = quantile(sorted, 0.9);
  console.log(
    `${c.name.padEnd(24)}${`${median.toFixed(1)} ms`.padStart(10)}${`${p90.toFixed(1)} ms`.padStart(10)}` +
      `${`${(median / baseline).toFixed(2)}x`.padStart(9)}`,
  );
}
const helpRatio =
  quantile(
    [...samples.get('agents --help')].sort((a, b) => a - b),
    0.5,
  ) / baseline;
console.log(`\n--help median ratio ${helpRatio.toFixed(2)}x (target ≤ 1.30x)`);
