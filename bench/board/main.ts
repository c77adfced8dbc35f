// `npm run bench:board` (issue 48): `agents board` (the built binary) in a pseudo-terminal (`script`)
// against the emulator with the service's rate limit on (100 requests a minute per key), N sessions whose
// turns never end. Prints, per size: the first paint (spawn to the first frame on the terminal, median of
// --paints runs, beside `node -e 0` in the same pseudo-terminal), the board's requests a minute alone, and
// beside `agents wait` on the same sessions and key: the board's and the wait's (the wait's counted from
// its --debug trace, the board's as the rest), and the 429s the emulator answered (should be none).
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startEmulator } from '../../src/emulator/index.js';

export interface RunOptions {
  bin: string;
  argv: string[];
}

const WORKSPACE = 'bench';
const SETUP_KEY = 'bench-setup-key';
const KEY = 'bench-board-key';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function envFor(url: string, dir: string, key: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    AGENTS_CONFIG_DIR: dir,
    AGENTS_BASE_URL: url,
    AGENTS_API_KEY: key,
  };
  for (const k of ['CI', 'NO_COLOR', 'AGENTS_PROFILE', 'AGENTS_DEBUG']) delete env[k];
  return { ...env, TERM: 'xterm-256color', COLUMNS: '120', LINES: '40' };
}

/** `command` in a pseudo-terminal of its own (util-linux script). */
function inPty(command: string[], env: NodeJS.ProcessEnv): ChildProcess {
  const line = command.map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
  return spawn('script', ['-qfec', line, '/dev/null'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
}

/** Spawn to the first frame of the board on the terminal (ms). */
async function firstPaint(bin: string, env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  const child = inPty([process.execPath, bin, 'board'], env);
  let out = '';
  const ms = await new Promise<number>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (c: string) => {
      out += c;
      if (out.includes('agents board ·')) resolve(performance.now() - started);
    });
    child.on('exit', () => reject(new Error(`the board ended before it drew: ${out.slice(-300)}`)));
  });
  child.stdin!.write('q');
  // A q lost on its way through the pseudo-terminal must not hang the bench.
  const guard = setTimeout(() => child.kill('SIGKILL'), 5000);
  await new Promise((r) => child.once('exit', r));
  clearTimeout(guard);
  return ms;
}

async function nodeStart(env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  const child = inPty([process.execPath, '-e', 'process.stdout.write("ready")'], env);
  await new Promise((r) => child.once('exit', r));
  return performance.now() - started;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function measure(o: RunOptions, n: number, seconds: number, paints: number): Promise<string[]> {
  const em = await startEmulator({
    port: 0,
    rateLimit: { limit: 100, windowMs: 60_000 },
    keys: [
      { key: SETUP_KEY, workspace: WORKSPACE },
      { key: KEY, workspace: WORKSPACE },
    ],
  });
  const dir = mkdtempSync(join(tmpdir(), 'agents-bench-board-'));
  const ids: string[] = [];
  try {
    // The sessions, made with a key of the same workspace, so that the board's key starts with its budget whole.
    const setup = envFor(em.url, dir, SETUP_KEY);
    for (let i = 0; i < n; i++) {
      const child = spawn(
        process.execPath,
        [o.bin, 'create', '-a', 'claude', `[[never]] [[steps:50]] task ${i}`],
        {
          env: setup,
        },
      );
      let id = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (id += c));
      await new Promise((r) => child.once('exit', r));
      ids.push(id.trim());
    }
    console.error(`  ${n} sessions made`);
    const env = envFor(em.url, dir, KEY);
    const paint: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < paints; i++) {
      paint.push(await firstPaint(o.bin, env));
      bare.push(await nodeStart(env));
    }

    // The board alone.
    em.resetStats();
    let board = inPty([process.execPath, o.bin, 'board'], env);
    await sleep(seconds * 1000);
    const alone = em.stats().requests;
    board.stdin!.write('q');
    await new Promise((r) => board.once('exit', r));

    // Beside a wait on every session, on the same key (the budget's file shared by both).
    await sleep(2000);
    em.resetStats();
    board = inPty([process.execPath, o.bin, 'board'], env);
    const wait = spawn(process.execPath, [o.bin, 'wait', ...ids], { env: { ...env, AGENTS_DEBUG: '1' } });
    let waitRequests = 0;
    wait.stderr.setEncoding('utf8').on('data', (c: string) => {
      for (const l of c.split('\n')) if (l.startsWith('debug: → ')) waitRequests += 1;
    });
    await sleep(seconds * 1000);
    const total = em.stats().requests;
    const rejected = em.stats().rejected429;
    const waited = waitRequests;
    board.stdin!.write('q');
    wait.kill('SIGINT');
    await Promise.all([new Promise((r) => board.once('exit', r)), new Promise((r) => wait.once('exit', r))]);
    const perMinute = (k: number) => Math.round((k * 60) / seconds);
    return [
      `${n} sessions working: first paint ${Math.round(median(paint))} ms (node -e 0 in the same pty: ${Math.round(median(bare))} ms); ` +
        `alone ${perMinute(alone)} requests a minute; beside agents wait: board ${perMinute(total - waited)}, ` +
        `wait ${perMinute(waited)}, together ${perMinute(total)} a minute; 429s ${rejected}`,
    ];
  } finally {
    await em.close();
  }
}

export async function run(o: RunOptions): Promise<void> {
  const { values } = parseArgs({
    args: o.argv,
    options: {
      sizes: { type: 'string', default: '10,50' },
      seconds: { type: 'string', default: '60' },
      paints: { type: 'string', default: '5' },
    },
  });
  const seconds = Number(values.seconds);
  console.log(`agents board on Node ${process.version}, ${seconds} s a phase (figures scaled to a minute)`);
  for (const n of values.sizes.split(',').map(Number)) {
    for (const line of await measure(o, n, seconds, Number(values.paints))) console.log(line);
  }
}
