// `npm run bench`: what one `agents` command costs, against baselines measured in the same run.
//  - start-up: `--help`, `--version` and a usage error (`show not-a-session`) against a bare `node -e 0`,
//    beside the help of a one-command commander program built and launched the same way;
//  - a request: `agents show <id> --json` against a bare Node script making the same GETs, once with
//    node:https (keep-alive) and once with the built-in fetch, over HTTPS as the service is reached: the
//    emulator serves TLS under a test authority made with openssl (scripts/test-ca.mjs), which every
//    process that sends a request trusts through NODE_EXTRA_CA_CERTS; the same show with its settings in
//    the config file instead of the environment; the peak memory of each;
//  - the one-file executable (dist-bin/, `npm run build:binary`), where it is built, unpacked from its release
//    archive: its `--help` and `show` against the npm install's under the same Node (the one in the
//    executable), their peak memory, and the size of the executable and of its release archive;
// all interleaved, so drift in machine load hits every command alike, and each run as a script makes it:
// stdout and stderr are pipes the bench reads, stdin is /dev/null. It runs under the Node that runs it,
// then under each other supported major (22, 24, 26) it can reach through `npx node@N`, as CI does.
// Options: --runs N (default 40), --warmup N (default 5), --node MAJOR (repeatable: these majors instead;
// `--node none` for the running Node alone), and --compare BIN: another build's bin/agents.js (say, of the
// commit before a change, built in a copy of the repository) measured in the same rounds, so that before
// and after meet the same load.
import { spawn, spawnSync } from 'node:child_process';
import { request } from 'node:https';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { build } from 'esbuild';
import { nodeBundle, shipped } from '../scripts/esbuild-options.mjs';
import { makeTestCa } from '../scripts/test-ca.mjs';
import { archive } from '../scripts/release-dir.mjs';
import { fileURLToPath } from 'node:url';

const bin = fileURLToPath(new URL('../bin/agents.js', import.meta.url));
if (!existsSync(fileURLToPath(new URL('../dist/agents.js', import.meta.url)))) {
  console.error('dist/agents.js is missing: run `npm run bench` (it builds first) or `npm run build`');
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
const SUPPORTED = ['22', '24', '26'];
const asked = process.argv.flatMap((a, i) => (process.argv[i - 1] === '--node' ? [a] : []));
const majors = (asked.length > 0 ? asked : SUPPORTED).filter(
  (m) => m !== 'none' && m !== process.versions.node.split('.')[0],
);
const compareArg = process.argv.indexOf('--compare');
const before = compareArg === -1 ? undefined : resolve(process.argv[compareArg + 1]);
if (before !== undefined && !existsSync(before)) throw new Error(`--compare: no ${before}`);

const work = mkdtempSync(join(tmpdir(), 'agents-bench-'));
process.on('exit', () => rmSync(work, { recursive: true, force: true }));

// The emulator serves the requests over HTTPS, in a process of its own (the bench's runs block this one):
// its programmatic API (`agents emulator` has no TLS option), bundled from src/. The same session for
// every run.
mkdirSync(join(work, 'ca'));
const tls = makeTestCa(join(work, 'ca'));
const emulatorScript = join(work, 'emulator.mjs');
await build({
  stdin: {
    contents: `import { readFileSync } from 'node:fs';
import { startEmulator } from './src/emulator/index.ts';
const [cert, key] = process.argv.slice(2).map((f) => readFileSync(f, 'utf8'));
const em = await startEmulator({ port: 0, rateLimit: false, tls: { cert, key } });
process.stdout.write(em.url + '\\n');
`,
    resolveDir: fileURLToPath(new URL('..', import.meta.url)),
    loader: 'ts',
  },
  ...nodeBundle,
  outfile: emulatorScript,
});
writeFileSync(join(work, 'server.pem'), tls.cert);
writeFileSync(join(work, 'server.key'), tls.key);
const emulator = spawn(
  process.execPath,
  [emulatorScript, join(work, 'server.pem'), join(work, 'server.key')],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { PATH: process.env.PATH, HOME: work },
  },
);
const baseUrl = await new Promise((resolve, reject) => {
  createInterface({ input: emulator.stdout }).once('line', resolve);
  emulator.once('exit', (code) => reject(new Error(`the emulator exited with ${code}`)));
});
process.on('exit', () => emulator.kill());
const KEY = 'agents-dev-key';
const session = await new Promise((resolve, reject) => {
  const req = request(
    `${baseUrl}/rest/v1/sessions`,
    {
      method: 'POST',
      ca: readFileSync(tls.ca),
      headers: { authorization: `ApiKey ${KEY}`, 'content-type': 'application/json' },
    },
    (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (c) => (body += c));
      res.on('end', () => (res.statusCode === 201 ? resolve(JSON.parse(body)) : reject(new Error(body))));
    },
  );
  req.on('error', reject);
  req.end(
    JSON.stringify({
      agent_name: 'claude',
      message: '[[steps:6]] [[think:10]] [[gap:10]] a session to show',
    }),
  );
});
await new Promise((r) => setTimeout(r, 500));

// The GETs `agents show <id> --json` makes, as its --debug trace lists them: the baselines make the same.
const traced = spawnSync(process.execPath, [bin, 'show', session.id, '--json', '--debug'], {
  env: {
    PATH: process.env.PATH,
    HOME: work,
    AGENTS_CONFIG_DIR: work,
    AGENTS_BASE_URL: baseUrl,
    AGENTS_API_KEY: KEY,
    NODE_EXTRA_CA_CERTS: tls.ca,
  },
  encoding: 'utf8',
});
const gets = [...traced.stderr.matchAll(/→ GET (\S+)/g)].map(
  (m) => new URL(m[1]).pathname + new URL(m[1]).search,
);
if (traced.status !== 0 || gets.length === 0) throw new Error(`show --debug traced no GET: ${traced.stderr}`);
// The baselines are the plainest scripts that do the same: CommonJS, so they do not pay for Node's ESM
// loader (agents does).
const bareHttps = join(work, 'bare-https.cjs');
writeFileSync(
  bareHttps,
  `const https = require('node:https');
const agent = new https.Agent({ keepAlive: true });
const get = (path) => new Promise((resolve, reject) => {
  https.get(${JSON.stringify(baseUrl)} + path, { agent, headers: { authorization: 'ApiKey ${KEY}', accept: 'application/json' } }, (res) => {
    let body = ''; res.setEncoding('utf8'); res.on('data', (c) => (body += c)); res.on('end', () => resolve(JSON.parse(body)));
  }).on('error', reject);
});
(async () => {
  const out = [];
  for (const path of ${JSON.stringify(gets)}) out.push(await get(path));
  process.stdout.write(JSON.stringify(out) + '\\n');
  agent.destroy();
})();
`,
);
const bareFetch = join(work, 'bare-fetch.cjs');
writeFileSync(
  bareFetch,
  `(async () => {
  const out = [];
  for (const path of ${JSON.stringify(gets)}) {
    const res = await fetch(${JSON.stringify(baseUrl)} + path, { headers: { authorization: 'ApiKey ${KEY}', accept: 'application/json' } });
    out.push(await res.json());
  }
  process.stdout.write(JSON.stringify(out) + '\\n');
})();
`,
);
// The least a commander program pays for its help: one command, bundled and launched as bin/agents.js
// is (an ES module build through a launcher that turns the compile cache on). What `--help` costs above
// this is our own (the commands, their options and checks, the entries of the help).
const commanderDir = join(work, 'commander-alone');
await build({
  stdin: {
    contents: `import { Command } from 'commander';
new Command('tool').description('A tool.').option('--json', 'print JSON').exitOverride()
  .addCommand(new Command('show').description('show one').argument('<id>'))
  .parseAsync(process.argv).catch(() => undefined);
`,
    resolveDir: fileURLToPath(new URL('..', import.meta.url)),
  },
  ...shipped,
  outfile: join(commanderDir, 'program.js'),
});
const commanderAlone = join(commanderDir, 'launcher.mjs');
writeFileSync(
  commanderAlone,
  "import module from 'node:module';\nmodule.enableCompileCache?.();\nawait import('./program.js');\n",
);

// Peak memory and CPU time: a preload reports the process's maxRSS and its CPU time (user and system, all
// threads) as it exits, in runs of their own. CPU time says what a command costs whatever else the machine
// does; wall time (the medians) is what a script waits for.
const rssPreload = join(work, 'rss.cjs');
writeFileSync(
  rssPreload,
  `process.on('exit', () => {
  const { maxRSS, userCPUTime, systemCPUTime } = process.resourceUsage();
  require('node:fs').writeSync(2, \`resources \${maxRSS} \${userCPUTime + systemCPUTime} node \${process.version}\\n\`);
});
`,
);

// The one-file executable of this machine, where `npm run build:binary` made it, measured as a user has it:
// archived as a release has it, then unpacked. (The file `node --build-sea` writes sits in the page cache
// in 2 MB folios, which the kernel maps whole: its text counted 22 MB more resident pages than the program
// reads, none of them private; an unpacked or copied file does not.) Then the Node in it: the preload above reports
// it too, through NODE_OPTIONS, which the executable honours as node does.
const os = process.platform === 'win32' ? 'windows' : process.platform;
const built = fileURLToPath(
  new URL(`../dist-bin/agents-${os}-${process.arch}${os === 'windows' ? '.exe' : ''}`, import.meta.url),
);
const packed = existsSync(built) ? await archive(built, join(work, 'release')) : undefined;
if (packed !== undefined) {
  const unpacked = spawnSync('tar', ['-xf', packed, '-C', work], { stdio: 'inherit' });
  if (unpacked.status !== 0) throw new Error(`tar -xf ${packed} failed`);
}
const binary = join(work, `agents-${os}-${process.arch}`, os === 'windows' ? 'agents.exe' : 'agents');
const binaryNode =
  packed === undefined
    ? undefined
    : /node (v\S+)/.exec(
        spawnSync(binary, ['--version'], {
          env: { ...process.env, NODE_OPTIONS: `-r ${rssPreload}` },
          encoding: 'utf8',
        }).stderr,
      )?.[1];
if (packed === undefined) console.log(`\n${built}: not built (npm run build:binary), not measured`);

// No colour, no CI quirks. Node's compile cache (and an older build's own code cache, under XDG_CACHE_HOME)
// is the bench's own, filled by the warm-up rounds as a user's first runs fill theirs. The runs that send a
// request, ours and the bare scripts alike, trust the test authority through NODE_EXTRA_CA_CERTS (Node
// reads the file as it starts); the others run without it, as before (on Node 20 it alone cost every process
// about 75 ms).
const env = {
  PATH: process.env.PATH,
  HOME: work,
  XDG_CACHE_HOME: join(work, 'cache'),
  NODE_COMPILE_CACHE: join(work, 'compile-cache'),
  AGENTS_CONFIG_DIR: work,
  AGENTS_BASE_URL: baseUrl,
  AGENTS_API_KEY: KEY,
  NO_COLOR: '1',
};
const tlsEnv = { ...env, NODE_EXTRA_CA_CERTS: tls.ca };
// The same settings from the config file: conf reads it (the file exists and a setting must come from it).
const configDir = join(work, 'config');
mkdirSync(configDir);
writeFileSync(
  join(configDir, 'config.json'),
  JSON.stringify({ profiles: { default: { 'api-key': KEY, 'base-url': baseUrl } } }),
);
const fileEnv = { ...tlsEnv, AGENTS_CONFIG_DIR: configDir };
delete fileEnv.AGENTS_BASE_URL;
delete fileEnv.AGENTS_API_KEY;

/** The agents cases of one build; `tag` names it ('' for this checkout's). */
const agentsCases = (file, tag) => [
  { name: `${tag}agents --version`, args: [file, '--version'] },
  { name: `${tag}agents --help`, args: [file, '--help'] },
  { name: `${tag}agents show nope (usage error)`, args: [file, 'show', 'not-a-session'], status: 2 },
  { name: `${tag}agents show --json`, args: [file, 'show', session.id, '--json'], env: tlsEnv },
  { name: `${tag}agents show --json, config file`, args: [file, 'show', session.id, '--json'], env: fileEnv },
];
/** The executable's cases: the program is the executable itself, run under no other Node. */
const binaryCases = [
  { name: 'binary --help', program: binary, args: ['--help'] },
  { name: 'binary show --json', program: binary, args: ['show', session.id, '--json'], env: tlsEnv },
];
const baseCases = [
  { name: 'node -e 0', args: ['-e', '0'] },
  { name: 'commander alone: --help', args: [commanderAlone, '--help'] },
  ...agentsCases(bin, ''),
  { name: 'bare node:https GETs', args: [bareHttps], env: tlsEnv },
  { name: 'bare fetch GETs', args: [bareFetch], env: tlsEnv },
  ...(before === undefined ? [] : agentsCases(before, 'before: ')),
];

function quantile(sorted, q) {
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}
const median = (xs) =>
  quantile(
    [...xs].sort((a, b) => a - b),
    0.5,
  );

/**
 * Every run starts from an unspent request budget, as a command run now and then does: the bench's hundreds
 * of runs a minute would otherwise spend the key's 100 requests, shared through <state dir>/pacing/, and wait
 * for the window (a minute) as they should. The files' cost is still measured: each run makes its own.
 */
function freshBudget() {
  for (const dir of [work, configDir]) {
    const pacing = join(dir, 'pacing');
    if (!existsSync(pacing)) continue;
    for (const name of readdirSync(pacing)) rmSync(join(pacing, name), { force: true, recursive: true });
  }
}

/** What each run of bench() found, for the summary. */
const summary = [];

/**
 * Runs every case under the Node in `prefix` (its executable, then any arguments) and prints the table;
 * with the executable's cases where it holds this same Node (`version`).
 */
function bench(label, prefix, version) {
  const cases = version === binaryNode ? [...baseCases, ...binaryCases] : baseCases;
  // As a script runs a command: stdout and stderr are pipes it reads (`id=$(agents create …)`), stdin is
  // /dev/null.
  const time = (c) => {
    freshBudget();
    const start = process.hrtime.bigint();
    const r = spawnSync(c.program ?? prefix[0], c.program ? c.args : [...prefix.slice(1), ...c.args], {
      env: c.env ?? env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (r.status !== (c.status ?? 0)) throw new Error(`${c.name} exited ${r.status}: ${r.stderr}`);
    return ms;
  };
  /** Peak RSS in MB and CPU time in ms of one run. */
  const resources = (c) => {
    freshBudget();
    const r = c.program
      ? spawnSync(c.program, c.args, {
          env: { ...(c.env ?? env), NODE_OPTIONS: `-r ${rssPreload}` },
          stdio: ['ignore', 'pipe', 'pipe'],
          encoding: 'utf8',
        })
      : spawnSync(prefix[0], [...prefix.slice(1), '-r', rssPreload, ...c.args], {
          env: c.env ?? env,
          stdio: ['ignore', 'pipe', 'pipe'],
          encoding: 'utf8',
        });
    const [, rss = 'NaN', cpu = 'NaN'] = /resources (\d+) (\d+)/.exec(r.stderr) ?? [];
    return { rss: Number(rss) / 1024, cpu: Number(cpu) / 1000 };
  };
  for (let i = 0; i < warmup; i++) for (const c of cases) time(c);
  const samples = new Map(cases.map((c) => [c.name, []]));
  for (let i = 0; i < runs; i++) {
    // Rotate the order each round so no case always runs right after the same neighbour.
    for (let j = 0; j < cases.length; j++) {
      const c = cases[(i + j) % cases.length];
      samples.get(c.name).push(time(c));
    }
  }
  const med = new Map(cases.map((c) => [c.name, median(samples.get(c.name))]));
  const used = new Map(cases.map((c) => [c.name, []]));
  for (let i = 0; i < 7; i++) for (const c of cases) used.get(c.name).push(resources(c));
  const mem = new Map(cases.map((c) => [c.name, median(used.get(c.name).map((u) => u.rss))]));
  const cpu = new Map(cases.map((c) => [c.name, median(used.get(c.name).map((u) => u.cpu))]));
  const base = med.get('node -e 0');
  console.log(`\n${label}: ${runs} runs each after ${warmup} warm-up rounds, interleaved (medians)\n`);
  console.log(
    `${'command'.padEnd(44)}${'median'.padStart(10)}${'p90'.padStart(10)}${'× node -e 0'.padStart(13)}` +
      `${'CPU'.padStart(10)}${'peak RSS'.padStart(11)}`,
  );
  for (const c of cases) {
    const sorted = [...samples.get(c.name)].sort((a, b) => a - b);
    console.log(
      `${c.name.padEnd(44)}${`${med.get(c.name).toFixed(1)} ms`.padStart(10)}${`${quantile(sorted, 0.9).toFixed(1)} ms`.padStart(10)}` +
        `${`${(med.get(c.name) / base).toFixed(2)}x`.padStart(13)}${`${cpu.get(c.name).toFixed(1)} ms`.padStart(10)}` +
        `${`${mem.get(c.name).toFixed(1)} MB`.padStart(11)}`,
    );
  }
  /** Wall-time ratios against the targets' baselines, and the same in CPU time. */
  const ratios = (tag, m) => ({
    help: m.get(`${tag}agents --help`) / m.get('node -e 0'),
    usage: m.get(`${tag}agents show nope (usage error)`) / m.get('node -e 0'),
    https: m.get(`${tag}agents show --json`) / m.get('bare node:https GETs'),
    fetch: m.get(`${tag}agents show --json`) / m.get('bare fetch GETs'),
    file: m.get(`${tag}agents show --json, config file`) / m.get('bare node:https GETs'),
    rss: mem.get(`${tag}agents show --json`),
    commander: m.get('commander alone: --help') / m.get('node -e 0'),
    helpOverCommander: m.get(`${tag}agents --help`) / m.get('commander alone: --help'),
  });
  const now = ratios('', med);
  const then = before === undefined ? undefined : ratios('before: ', med);
  const nowCpu = ratios('', cpu);
  const row = (what, key, target, unit = 'x') => {
    const f = (v) => `${v.toFixed(unit === 'x' ? 2 : 1)}${unit === 'x' ? 'x' : ' MB'}`;
    const was = then === undefined ? '' : `   (before: ${f(then[key])})`;
    const inCpu = unit === 'x' ? ` (CPU ${f(nowCpu[key])})` : '';
    console.log(`  ${what.padEnd(60)}${f(now[key]).padStart(9)}${inCpu}   ${target}${was}`);
  };
  console.log(`\n${label} ratios:`);
  row('--help against node -e 0', 'help', 'target ≤ 1.30x');
  row('usage error against node -e 0', 'usage', 'target ≤ 1.30x');
  row('commander alone: --help against node -e 0', 'commander', 'the least a commander program pays');
  row('--help against commander alone: --help', 'helpOverCommander', 'target ≤ 1.15x');
  row('show --json against bare node:https GETs', 'https', 'target ≤ 2.00x');
  row('show --json against bare fetch GETs', 'fetch', 'target ≤ 1.30x');
  row('show --json, settings in the config file, against node:https', 'file', 'target ≤ 2.00x');
  row(
    'peak RSS of show --json',
    'rss',
    `bare node:https ${mem.get('bare node:https GETs').toFixed(1)} MB`,
    'MB',
  );
  if (cases === baseCases) {
    summary.push({ label, now, then });
    return;
  }
  console.log(`\nthe one-file executable (${binaryNode}) against the npm install under the same Node:`);
  const vs = (what, a, b, target) =>
    console.log(`  ${what.padEnd(60)}${`${(med.get(a) / med.get(b)).toFixed(2)}x`.padStart(9)}   ${target}`);
  vs('--help', 'binary --help', 'agents --help', 'target ≤ 1.05x');
  vs('show --json', 'binary show --json', 'agents show --json', 'target ≤ 1.05x');
  const peak = (what, a, b) =>
    console.log(
      `  ${`peak RSS of ${what}`.padEnd(60)}${`${(mem.get(a) / mem.get(b)).toFixed(2)}x`.padStart(9)}   ` +
        `${mem.get(a).toFixed(1)} MB beside ${mem.get(b).toFixed(1)} MB (target ≤ 1.1x)`,
    );
  peak('--help', 'binary --help', 'agents --help');
  peak('show --json', 'binary show --json', 'agents show --json');
  summary.push({ label, now, then });
}

if (SUPPORTED.includes(process.versions.node.split('.')[0]))
  bench(`node ${process.version}`, [process.execPath], process.version);
else console.log(`\nnode ${process.version}: not a supported major (${SUPPORTED.join(', ')}), not measured`);
for (const major of majors) {
  // npx fetches that Node once; its executable is then run directly (npx itself takes hundreds of ms).
  const probe = spawnSync('npx', ['-y', `node@${major}`, '-p', 'process.execPath + " " + process.version'], {
    encoding: 'utf8',
  });
  const [path, version] = probe.stdout.trim().split(' ');
  if (probe.status !== 0 || !path || !existsSync(path)) {
    console.log(`\nnode ${major}: not reachable through npx (${probe.stderr.trim().split('\n').at(-1)})`);
    continue;
  }
  bench(`node ${version}`, [path], version);
}
if (packed !== undefined) {
  console.log(
    `\n${built}: ${(statSync(built).size / 1e6).toFixed(1)} MB; its release archive ` +
      `(${packed.split(/[\\/]/).at(-1)}): ${(statSync(packed).size / 1e6).toFixed(1)} MB`,
  );
}
emulator.kill();

if (summary.length > 1 || before !== undefined) {
  console.log(
    '\nsummary (targets: --help ≤ 1.15x commander alone; show ≤ 2.00x node:https, ≤ 1.30x fetch)\n',
  );
  console.log(
    `${'node'.padEnd(16)}${'--help'.padStart(9)}${'usage'.padStart(9)}${'commander'.padStart(11)}${'help/cmdr'.padStart(11)}${'show/https'.padStart(11)}${'show/fetch'.padStart(12)}${'file/https'.padStart(11)}${'show RSS'.padStart(11)}`,
  );
  for (const { label, now, then } of summary) {
    for (const [tag, r] of [
      ['', now],
      ['  before', then],
    ]) {
      if (r === undefined) continue;
      console.log(
        `${(tag || label).padEnd(16)}${`${r.help.toFixed(2)}x`.padStart(9)}${`${r.usage.toFixed(2)}x`.padStart(9)}` +
          `${`${r.commander.toFixed(2)}x`.padStart(11)}${`${r.helpOverCommander.toFixed(2)}x`.padStart(11)}` +
          `${`${r.https.toFixed(2)}x`.padStart(11)}${`${r.fetch.toFixed(2)}x`.padStart(12)}${`${r.file.toFixed(2)}x`.padStart(11)}` +
          `${`${r.rss.toFixed(1)} MB`.padStart(11)}`,
      );
    }
  }
}
