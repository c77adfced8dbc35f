// npm run demo: the real `agents` binary against the bundled emulator, playing the live service (its
// duplicate final replies, notices, plans), as a user would type it; a schema-checked answer; a fan-out.
// Nothing leaves this machine and nothing touches your own config (a temporary config dir is used).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const bin = new URL('../bin/agents.js', import.meta.url).pathname;
const configDir = mkdtempSync(join(tmpdir(), 'agents-demo-'));

// Its banner (on stderr) is for people starting it by hand; here it would land between the commands.
const emulator = spawn(process.execPath, [bin, 'emulator', '--dialect', 'live', '--port', '0'], {
  stdio: ['ignore', 'pipe', 'ignore'],
});
const url = await new Promise((resolve, reject) => {
  const lines = createInterface({ input: emulator.stdout });
  lines.once('line', resolve);
  emulator.once('exit', (code) => reject(new Error(`the emulator exited with ${code}`)));
});

const env = {
  ...process.env,
  AGENTS_CONFIG_DIR: configDir,
  AGENTS_BASE_URL: url,
  AGENTS_API_KEY: 'agents-dev-key',
};

function run(args, input, cwd) {
  const shown = args.map((a) => (/[\s"'$]/.test(a) ? `'${a}'` : a)).join(' ');
  process.stdout.write(`\n$ ${input === undefined ? '' : `printf '%s' '${input}' | `}agents ${shown}\n`);
  const r = spawnSync(process.execPath, [bin, ...args], {
    env,
    input,
    cwd,
    stdio: [input === undefined ? 'ignore' : 'pipe', 'inherit', 'inherit'],
  });
  process.stdout.write(`\n(exit ${r.status})\n`);
  return r.status;
}

/** `for p in …; do agents create -a claude "$p"; done | agents wait`: several sessions, one waiter. */
function fanOut(prompts) {
  const quoted = prompts.map((p) => `'${p}'`).join(' ');
  process.stdout.write(`\n$ for p in ${quoted}; do agents create -a claude "$p"; done | agents wait\n`);
  const ids = prompts.map(
    (p) =>
      spawnSync(process.execPath, [bin, 'create', '-a', 'claude', p], {
        env,
        stdio: ['ignore', 'pipe', 'inherit'],
        encoding: 'utf8',
      }).stdout,
  );
  const r = spawnSync(process.execPath, [bin, 'wait'], {
    env,
    input: ids.join(''),
    stdio: ['pipe', 'inherit', 'inherit'],
  });
  process.stdout.write(`\n(exit ${r.status})\n`);
  return r.status;
}

let failed = 0;
try {
  process.stdout.write(`Emulator on ${url} (key agents-dev-key)\n`);
  failed +=
    run(['create', '--agent', 'claude', '--wait'], 'Summarise what this repository does [[steps:3]]') === 0
      ? 0
      : 1;
  failed +=
    run([
      'send',
      'last',
      '--follow',
      'Plan three fixes [[steps:4]] [[plan:%23%20Plan%0A1.%20Fix%20the%20tests%0A2.%20Add%20a%20flag]]',
    ]) === 0
      ? 0
      : 1;
  failed += run(['plan', 'last']) === 0 ? 0 : 1;
  failed += run(['show', 'last', '--tools']) === 0 ? 0 : 1;
  // A schema-checked answer: prose first, so the follow-up that asks again shows; then one line of JSON.
  const verdict = {
    type: 'object',
    properties: { verdict: { enum: ['approve', 'reject'] } },
    required: ['verdict'],
  };
  writeFileSync(join(configDir, 'verdict.json'), JSON.stringify(verdict));
  const replies = ['Looks fine to me.', '```json\n{"verdict": "approve"}\n```'].map(encodeURIComponent);
  failed +=
    run(
      [
        'create',
        '-a',
        'claude',
        '--output-schema',
        'verdict.json',
        `Is it safe to merge? [[replies:${replies.join('|')}]]`,
      ],
      undefined,
      configDir,
    ) === 0
      ? 0
      : 1;
  failed +=
    fanOut([
      'Review the parser [[think:5500]] [[reply:parser:%20fine]]',
      'Review the CLI [[think:700]] [[reply:cli:%20one%20nit]]',
      'Review the docs [[think:3000]] [[reply:docs:%20a%20typo]]',
    ]) === 0
      ? 0
      : 1;
} finally {
  emulator.kill('SIGINT');
  rmSync(configDir, { recursive: true, force: true });
}
process.exitCode = failed ? 1 : 0;
