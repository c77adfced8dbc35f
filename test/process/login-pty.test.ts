// `agents login` at a terminal: the built binary (this test run's private build) in a real pseudo-terminal
// (util-linux `script`), answering its prompts as a person would, against the emulator. It stays on the
// binary because the terminal itself (raw mode, masking, Ctrl-C from the keyboard) is what is under test.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { openConfigFile } from '../../src/core/config/config-file.js';
import { BIN } from '../support/run-cli.js';
import { cleanEnv, freshDir, stored, storedProfiles } from '../support/config.js';
import { missing, titled } from '../support/tools.js';
import { ownEmulator } from '../support/emulator.js';

const noTools = missing('script');

const GOOD = 'sk-pty-0123456789abcdefghijk';
let em: RunningEmulator;

beforeAll(async () => {
  em = await ownEmulator({ keys: [{ key: GOOD, workspace: 'ws' }] });
});
afterAll(() => em.close());

/** A run of the CLI in a pseudo-terminal: wait for text on the screen, type, and collect the exit code. */
class PtyRun {
  private screen = '';
  private waiters: { text: string; resolve: () => void }[] = [];
  readonly exited: Promise<number | null>;
  private readonly child;

  constructor(args: string[], env: NodeJS.ProcessEnv) {
    const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const command = [process.execPath, BIN, ...args].map(quote).join(' ');
    // -q quiet, -f flush, -e exit with the child's code, -c run this command; no typescript file kept.
    this.child = spawn('script', ['-qfec', command, '/dev/null'], { env, stdio: 'pipe' });
    this.child.stdout.on('data', (chunk: Buffer) => {
      this.screen += chunk.toString('utf8');
      this.waiters = this.waiters.filter((w) => {
        if (!this.screen.includes(w.text)) return true;
        w.resolve();
        return false;
      });
    });
    this.exited = new Promise((resolve) => this.child.on('close', (code) => resolve(code)));
  }

  get output(): string {
    return this.screen;
  }

  waitFor(text: string): Promise<void> {
    if (this.screen.includes(text)) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ text, resolve });
      void this.exited.then(() =>
        reject(new Error(`exited before showing ${JSON.stringify(text)}:\n${this.screen}`)),
      );
    });
  }

  type(text: string): void {
    this.child.stdin.write(text);
  }

  async finish(): Promise<number | null> {
    const code = await this.exited;
    this.child.stdin.end();
    return code;
  }
}

function env(dir: string): NodeJS.ProcessEnv {
  // No CI variable here: the run must see a person at a terminal.
  return cleanEnv(dir, { TERM: 'xterm' });
}

describe.skipIf(noTools)(titled('agents login in a terminal', noTools), () => {
  it('asks for the base URL and the key (masked), checks it, and stores both', async () => {
    const dir = freshDir();
    const run = new PtyRun(['login', '--profile', 'pty'], env(dir));
    await run.waitFor('Base URL');
    run.type(`${em.url}\r`);
    await run.waitFor('API key');
    run.type(`${GOOD}\r`);
    expect(await run.finish()).toBe(0);
    expect(run.output).toContain(`Logged in to ${em.url} as profile pty`);
    // The key was typed into a masked prompt: it never shows on the screen.
    expect(run.output).not.toContain(GOOD);
    expect(await stored(dir, 'pty')).toEqual({
      'api-key': GOOD,
      'base-url': em.url,
    });
  });

  it('offers the current base URL as the default', async () => {
    const dir = freshDir();
    await openConfigFile({ AGENTS_CONFIG_DIR: dir }).set('default', 'base-url', em.url);
    const run = new PtyRun(['login'], env(dir));
    await run.waitFor('Base URL');
    run.type('\r');
    await run.waitFor('API key');
    run.type(`${GOOD}\r`);
    expect(await run.finish()).toBe(0);
    expect(await stored(dir)).toEqual({ 'api-key': GOOD, 'base-url': em.url });
  });

  it('Ctrl-C at the key prompt stores nothing and exits 130', async () => {
    const dir = freshDir();
    const run = new PtyRun(['login'], env(dir));
    await run.waitFor('Base URL');
    run.type(`${em.url}\r`);
    await run.waitFor('API key');
    run.type('sk-half-typed');
    run.type('\x03');
    expect(await run.finish()).toBe(130);
    expect(run.output).toContain('login cancelled; nothing was stored');
    expect(await storedProfiles(dir)).toEqual({});
  });
});
