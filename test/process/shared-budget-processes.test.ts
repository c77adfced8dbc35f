// The shared budget between real processes: children that share one key's budget through one directory,
// some of them killed (SIGKILL) with requests in flight mid-window. No window at the server ever holds
// more than the limit, and the survivors all finish: a dead process's slots are not held for ever. A budget
// file that cannot be used (garbage in it, a file where its lock goes) is repaired by the first process
// that meets it, its broken copy kept: the emulator refuses none of the processes' requests.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/run-cli.js';
import { ownEmulator } from '../support/emulator.js';
import { parseState, stateFileName } from '../../src/core/budget/state.js';
import {
  busiestWindow,
  json,
  KEY,
  POLL,
  session,
  startServer,
  type TestServer,
} from '../support/test-server.js';

let out = '';
let child = '';
beforeAll(async () => {
  // Under node_modules so that the dependencies left out of the bundle (undici) resolve.
  const cache = join(ROOT, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  out = mkdtempSync(join(cache, 'pacing-child-'));
  child = join(out, 'pacing-child.mjs');
  await build({
    absWorkingDir: ROOT,
    entryPoints: ['test/support/pacing-child.ts'],
    outfile: child,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20.18',
    packages: 'external',
    define: { __AGENTS_VERSION__: '"test"' },
    logLevel: 'warning',
  });
});
afterAll(() => rmSync(out, { recursive: true, force: true }));

interface Arrival {
  child: number;
  at: number;
}

function run(args: string[]): { proc: ChildProcess; exit: Promise<number | null>; stderr: () => string } {
  const proc = spawn(process.execPath, [child, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr?.setEncoding('utf8').on('data', (c: string) => (stderr += c));
  const exit = new Promise<number | null>((resolve) => proc.on('close', (code) => resolve(code)));
  return { proc, exit, stderr: () => stderr };
}

describe('one budget across processes', () => {
  it('processes killed mid-window with requests in flight: no window over the limit, the others all finish', async () => {
    const arrivals: Arrival[] = [];
    const held: Array<() => void> = [];
    const victims = new Set([1, 2]);
    const s: TestServer = await startServer((req, res) => {
      const id = /\/sessions\/([^/?]+)/.exec(req.url ?? '')?.[1] ?? '';
      const who = parseInt(id.slice(0, 8), 16);
      const nth = parseInt(id.slice(-12), 16);
      arrivals.push({ child: who, at: Date.now() });
      // A victim's third request never gets its answer: it is in flight when the victim is killed.
      if (victims.has(who) && nth >= 2) held.push(() => res.destroy());
      else json(res, 200, session(s.url, id));
    });
    const dir = join(mkdtempSync(join(tmpdir(), 'agents-xproc-')), 'pacing');
    const limit = 5;
    const windowMs = 600;
    const common = (who: number, count: number) => [
      s.url,
      KEY,
      dir,
      String(who),
      String(count),
      String(limit),
      String(windowMs),
      '1000',
    ];
    try {
      const doomed = [...victims].map((v) => run(common(v, 3)));
      const survivors = [3, 4, 5].map((who) => run(common(who, 4)));
      // Both victims have their third request in flight: kill them there.
      await expect.poll(() => held.length, { ...POLL, timeout: 20_000 }).toBe(2);
      doomed.forEach((d) => d.proc.kill('SIGKILL'));
      expect(await Promise.all(doomed.map((d) => d.exit))).toEqual([null, null]);
      const codes = await Promise.all(survivors.map((r) => r.exit));
      expect(codes).toEqual([0, 0, 0]);
      expect(survivors.map((r) => r.stderr())).toEqual(['', '', '']);
      // Every request the server saw, the victims' included, inside one window of the limit.
      expect(arrivals).toHaveLength(2 * 3 + 3 * 4);
      expect(busiestWindow(arrivals, windowMs)).toBeLessThanOrEqual(limit);
      // The shared file is all that is left: no lock, no temporary file of the killed ones matter.
      expect(readdirSync(dir).filter((f) => f.endsWith('.json'))).toHaveLength(1);
    } finally {
      held.forEach((h) => h());
      await s.close();
    }
  });

  it('each process alone (no shared directory) would have gone over: the test can see a breach', async () => {
    // The same burst without sharing: every process has its own window, so together they exceed it.
    const arrivals: Arrival[] = [];
    const s = await startServer((req, res) => {
      arrivals.push({ child: 0, at: Date.now() });
      json(res, 200, session(s.url, /\/sessions\/([^/?]+)/.exec(req.url ?? '')?.[1] ?? ''));
    });
    try {
      const runs = [1, 2, 3].map((who) => {
        const dir = join(mkdtempSync(join(tmpdir(), 'agents-xproc-alone-')), 'pacing');
        return run([s.url, KEY, dir, String(who), '4', '5', '1000', '1000']);
      });
      expect(await Promise.all(runs.map((r) => r.exit))).toEqual([0, 0, 0]);
      expect(busiestWindow(arrivals, 1000)).toBeGreaterThan(5);
    } finally {
      await s.close();
    }
  });
});

describe('a budget file that cannot be used, under many processes', () => {
  /** Children sharing one fresh budget directory on the emulator, which allows `limit` requests a second. */
  async function crowd(spoil: (file: string) => void) {
    const limit = 4;
    const em = await ownEmulator({ rateLimit: { limit, windowMs: 1000 } });
    const dir = join(mkdtempSync(join(tmpdir(), 'agents-xproc-broken-')), 'pacing');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, stateFileName(new URL(em.url).origin, KEY));
    spoil(file);
    try {
      const runs = [1, 2, 3, 4, 5, 6, 7, 8].map((who) =>
        run([em.url, KEY, dir, String(who), '2', String(limit), '1000', '1000']),
      );
      const codes = await Promise.all(runs.map((r) => r.exit));
      return { codes, stats: em.stats(), dir, file, stderr: runs.map((r) => r.stderr()) };
    } finally {
      await em.close();
    }
  }

  /** The copies set aside in `dir`, with what each holds. */
  const copies = (dir: string) =>
    readdirSync(dir)
      .filter((f) => f.includes('.broken-'))
      .map((f) => [
        f.slice(0, f.indexOf('.broken-') + '.broken-'.length),
        readFileSync(join(dir, f), 'utf8'),
      ]);

  it('garbage in the file: repaired once, inside the lock, the broken copy kept; no 429', async () => {
    const r = await crowd((file) => writeFileSync(file, 'garbage', { mode: 0o600 }));
    expect(r.codes, r.stderr.join('')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect([r.stats.requests, r.stats.rejected429]).toEqual([16, 0]);
    expect(() => parseState(readFileSync(r.file, 'utf8'))).not.toThrow();
    expect(copies(r.dir)).toEqual([[`${r.file.split('/').at(-1)}.broken-`, 'garbage']]);
    // One process repaired it and said so, naming where the copy is; none paced alone.
    const told = r.stderr.filter((e) => e !== '');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(
      /^repaired: .* could not be used \(it is not JSON\): replaced it, the broken one kept at .*\.broken-/,
    );
  });

  it('a regular file where the lock directory goes: moved aside once, kept; nobody waits it out, no 429', async () => {
    const r = await crowd((file) => writeFileSync(`${file}.lock`, 'left here\n'));
    expect(r.codes, r.stderr.join('')).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    expect([r.stats.requests, r.stats.rejected429]).toEqual([16, 0]);
    expect(copies(r.dir)).toEqual([[`${r.file.split('/').at(-1)}.lock.broken-`, 'left here\n']]);
    // No lock left behind, and the budget was shared: every process wrote to the one file.
    expect(readdirSync(r.dir).filter((f) => f.endsWith('.lock') || f.endsWith('.repair'))).toEqual([]);
    const told = r.stderr.filter((e) => e !== '');
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/^repaired: a file stood where the lock .* goes: moved it to .*\.lock\.broken-/);
  });
});
