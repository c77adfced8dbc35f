// Ctrl-C and SIGTERM at a prompt, while the create POST is in flight, and while waiting; a plain tail
// stopped; and a reader that closes the pipe early. Exit codes: 130 for both signals (the contract's
// "interrupted"; SIGTERM is a stop request like Ctrl-C, and 143 is not a code of the contract that scripts
// can rely on).
//
// The built binary runs where the process itself is under test: a pseudo-terminal's prompts, one real
// signal per situation (bin/agents.js turning SIGINT and SIGTERM into the run's stop signal), and a pipe
// that `head` closes. Every signal is sent once a condition holds (text on the screen, the emulator's
// stats), never after a fixed sleep. What main() does with a stop is also checked in-process, for both
// signals, through the run's handle.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runInPty } from '../support/pty.js';
import { BIN, ROOT, runCli, type CliResult } from '../support/run-cli.js';
import { withoutProgress, type RunHandle } from '../support/main.js';
import { finished, hostile, STACK, until, type Hostile } from '../support/hostile.js';
import { missing, titled } from '../support/tools.js';

const noScript = missing('script');

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
type Stop = (typeof SIGNALS)[number];
const SID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const THREAD_MESSAGES = 'GET /sessions/:id/threads/:tid/messages';

async function withEm<T>(opts: Parameters<typeof hostile>[0], body: (h: Hostile) => Promise<T>): Promise<T> {
  const h = await hostile(opts);
  try {
    return await body(h);
  } finally {
    await h.close();
  }
}

/** The pid of the `agents` process running with this env (its config dir is unique to the test). */
function agentsPid(env: NodeJS.ProcessEnv): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      if (cmd[0] !== process.execPath || cmd[1] !== BIN) continue;
      const environ = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
      if (environ.includes(`AGENTS_CONFIG_DIR=${env.AGENTS_CONFIG_DIR}`)) return Number(entry);
    } catch {
      // gone meanwhile, or not ours
    }
  }
  return undefined;
}

/** `agents ARGS` as its own process (pipes, stdin closed), sent `sig` once `ready` holds. */
function binaryStopped(h: Hostile, args: string[], sig: Stop, ready: () => boolean): Promise<CliResult> {
  return runCli(args, {
    env: h.env,
    closeStdin: true,
    onSpawn: (child) => void until(ready).then(() => child.kill(sig)),
  });
}

/** `agents ARGS` in-process, stopped as `sig` would stop it once `ready` holds. */
function stoppedInProcess(h: Hostile, args: string[], sig: Stop, ready: (run: RunHandle) => boolean) {
  return h.run(args, { onStart: (run) => void until(() => ready(run)).then(() => run.kill(sig)) });
}

(noScript ? describe.skip : describe.concurrent)(
  titled('signals at a prompt (a pseudo-terminal)', noScript),
  () => {
    it('Ctrl-C at the agent prompt: 130, nothing sent', async () => {
      await withEm({}, async ({ em, env }) => {
        const t = runInPty(['create', '--wait'], { ...env, NO_COLOR: '1' });
        await t.waitFor('Agent:');
        t.type('\u0003');
        expect(await t.exit).toBe(130);
        expect(em.stats().requests).toBe(0);
        expect(t.screen).not.toMatch(STACK);
      });
    });

    it('Ctrl-C at the message prompt: 130, nothing sent', async () => {
      await withEm({}, async ({ em, env }) => {
        const t = runInPty(['create', '-a', 'claude', '--wait'], { ...env, NO_COLOR: '1' });
        await t.waitFor('Message:');
        t.type('half a thought');
        t.type('\u0003');
        expect(await t.exit).toBe(130);
        expect(em.stats().requests).toBe(0);
        expect(t.screen).not.toMatch(STACK);
      });
    });

    // `kill <pid>` (SIGTERM, or SIGINT from another process: no Ctrl-C byte reaches the prompt).
    it.for(SIGNALS)('%s sent to the process at a prompt: 130, nothing sent', async (sig) => {
      await withEm({}, async ({ em, env }) => {
        const t = runInPty(['create', '-a', 'claude', '--wait'], { ...env, NO_COLOR: '1' });
        await t.waitFor('Message:');
        const pid = agentsPid(env);
        expect(pid).toBeDefined();
        process.kill(pid!, sig);
        expect(await t.exit).toBe(130);
        expect(em.stats().requests).toBe(0);
        expect(t.screen).not.toMatch(STACK);
      });
    });
  },
);

describe.concurrent('a signal while the create POST is in flight', () => {
  // slow: the session is created at once, the answer held back a minute. A run that waited for it would
  // still be running when runCli/runMain give up on it (20 s), and end with no exit code.
  const SLOW_POST = {
    faults: { rate: 1, modes: ['slow' as const], methods: ['POST' as const], slowMs: 60_000 },
  };
  const CANCELLED =
    'error: request cancelled; the session may have been created\n' +
    'hint: it was not sent again, to avoid a duplicate; look for it in the dashboard before creating it again\n';

  it('SIGINT to the process: 130, "may have been created", how to check', async () => {
    await withEm(SLOW_POST, async (h) => {
      const r = await binaryStopped(
        h,
        ['create', '-a', 'claude', '--wait', 'go'],
        'SIGINT',
        () => h.em.stats().sessionsCreated === 1,
      );
      expect(r.code).toBe(130);
      expect(r.stdout).toBe('');
      expect(withoutProgress(r.stderr)).toBe(CANCELLED);
      expect(h.em.stats().sessionsCreated).toBe(1);
      expect(h.em.stats().byRoute['POST /sessions']).toBe(1);
    });
  });

  it.for(SIGNALS)('%s (in-process): 130, "may have been created", how to check', async (sig) => {
    await withEm(SLOW_POST, async (h) => {
      const r = await stoppedInProcess(
        h,
        ['create', '-a', 'claude', '--wait', 'go'],
        sig,
        () => h.em.stats().sessionsCreated === 1,
      );
      expect(r.code).toBe(130);
      expect(r.stdout).toBe('');
      expect(withoutProgress(r.stderr)).toBe(CANCELLED);
      expect(h.em.stats().sessionsCreated).toBe(1);
      expect(h.em.stats().byRoute['POST /sessions']).toBe(1);
    });
  });
});

describe.concurrent('a signal while waiting', () => {
  /** The interrupted wait's two lines, naming the session and its thread. */
  function expectResumable(h: Hostile, r: CliResult) {
    expect(r.code).toBe(130);
    expect(r.stdout).toBe('');
    expect(h.em.stats().sessionsCreated).toBe(1);
    const id = r.stderr.match(SID)?.[0];
    expect(id).toBeDefined();
    const messages = h.em.messages(id!);
    expect(messages.length).toBeGreaterThan(0);
    const thread = messages[0]!.chat_thread_id;
    expect(withoutProgress(r.stderr)).toBe(
      `error: interrupted while waiting on session ${id}\n` +
        `hint: the session goes on; resume with: agents tail ${id} --thread ${thread} --until-final\n`,
    );
  }

  it('SIGTERM to the process: 130, the session id and the resume command', async () => {
    await withEm({}, async (h) => {
      const r = await binaryStopped(
        h,
        ['create', '-a', 'claude', '--wait', '[[never]] go'],
        'SIGTERM',
        () => (h.em.stats().byRoute[THREAD_MESSAGES] ?? 0) > 0,
      );
      expectResumable(h, r);
    });
  });

  it.for(SIGNALS)('%s (in-process): 130, the session id and the resume command', async (sig) => {
    await withEm({}, async (h) => {
      const r = await stoppedInProcess(
        h,
        ['create', '-a', 'claude', '--wait', '[[never]] go'],
        sig,
        () => (h.em.stats().byRoute[THREAD_MESSAGES] ?? 0) > 0,
      );
      expectResumable(h, r);
    });
  });
});

// Ctrl-C is how a plain tail (no --until-final, no --timeout) is meant to end: 130, and nothing on stderr.
describe.concurrent('a plain tail stopped', () => {
  it.for(SIGNALS)('%s once the backlog is shown: 130, nothing on stderr (in-process)', async (sig) => {
    await withEm({}, async (h) => {
      const s = await h.createSession('[[reply:the%20backlog]] go');
      await until(() => finished(h.em, s.id));
      // Stopped once the backlog (one line: the newest reply) is out and the tail is following.
      const r = await stoppedInProcess(h, ['tail', s.id, '-n', '1'], sig, (run) => run.stdout.endsWith('\n'));
      expect(r.code).toBe(130);
      expect(withoutProgress(r.stderr)).toBe('');
      const replies = h.em.messages(s.id).filter((m) => m.role === 'assistant');
      expect(replies.map((m) => `${m.message}\n`)).toContain(r.stdout);
    });
  });
});

describe.concurrent('a reader that closes the pipe', () => {
  /** `agents ARGS | head -n 1`, reporting agents' own exit status and stderr. */
  function pipedToHead(args: string[], env: NodeJS.ProcessEnv) {
    const quoted = args.map((a) => `'${a}'`).join(' ');
    const script = `'${process.execPath}' '${BIN}' ${quoted} 2>agents.err | head -n 1 >/dev/null; s=\${PIPESTATUS[0]}; cat agents.err; echo "status $s"`;
    return new Promise<string>((resolve, reject) => {
      const child = spawn('bash', ['-c', script], { env, cwd: env.AGENTS_CONFIG_DIR ?? ROOT });
      let out = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
      const killer = setTimeout(() => child.kill('SIGKILL'), 90_000); // a hang guard only
      child.on('error', reject);
      child.on('close', () => {
        clearTimeout(killer);
        resolve(out);
      });
    });
  }

  it('tail (following) | head -n 1 ends quietly with 0', async () => {
    await withEm({}, async (h) => {
      const s = await h.createSession('[[steps:200]] [[gap:1000]] go');
      h.em.advanceTurns(5000); // under way: four steps stored, and each request answered adds one
      expect(h.em.messages(s.id).length).toBeGreaterThan(3);
      expect(await pipedToHead(['tail', s.id, '--tools'], h.env)).toBe('status 0\n');
    });
  });

  it('show --all of a long session | head -n 1 ends quietly with 0', async () => {
    await withEm({}, async (h) => {
      const s = await h.createSession('go');
      for (let i = 0; i < 300; i++) {
        h.em.addMessage(s.id, {
          chat_thread_id: s.thread_id!,
          role: 'assistant',
          type: 'message',
          message: 'x'.repeat(2000),
        });
      }
      expect(await pipedToHead(['show', s.id, '--all'], h.env)).toBe('status 0\n');
    });
  });

  // What main() does once stdout is gone (bin/agents.js turns EPIPE into this stop): 0, nothing on stderr.
  it('a following tail whose stdout closes (in-process): 0, nothing on stderr', async () => {
    await withEm({}, async (h) => {
      const s = await h.createSession('[[steps:200]] [[gap:1000]] go');
      h.em.advanceTurns(5000); // under way: four steps stored, and each request answered adds one
      expect(h.em.messages(s.id).length).toBeGreaterThan(3);
      const r = await h.run(['tail', s.id, '--tools'], {
        onStart: (run) => void until(() => run.stdout.includes('\n')).then(() => run.kill('EPIPE')),
      });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toBe('');
      expect(withoutProgress(r.stderr)).toBe('');
    });
  });
});
