// The shared budget between real processes: children that share one key's budget through one directory,
// some of them killed (SIGKILL) with requests in flight mid-window. No window at the server ever holds
// more than the limit, and the survivors all finish: a dead process's slots are not held for ever.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../support/run-cli.js';
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
