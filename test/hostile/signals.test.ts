// Ctrl-C and SIGTERM at a prompt, while the create POST is in flight, and while waiting; and a reader that
// closes the pipe early. Exit codes: 130 for both signals (the contract's "interrupted"; SIGTERM is a
// stop request like Ctrl-C, and 143 is not a code of the contract that scripts can rely on).
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runInPty } from '../support/pty.js';
import { BIN, ROOT } from '../support/run-cli.js';
import { hostile, STACK, until, type Hostile } from './helpers.js';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
const SID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

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

describe.concurrent('signals', () => {
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

  it.for(SIGNALS)(
    '%s while the create POST is in flight: 130, "may have been created", how to check',
    async (sig) => {
      // slow: the session is created at once, the answer held back 10 s.
      await withEm({ faults: { rate: 1, modes: ['slow'], methods: ['POST'], slowMs: 10_000 } }, async (h) => {
        const started = Date.now();
        const r = await h.run(['create', '-a', 'claude', '--wait', 'go'], {
          onSpawn: (child) =>
            void until(() => h.em.stats().sessionsCreated === 1).then(() => child.kill(sig)),
        });
        expect(r.code).toBe(130);
        expect(Date.now() - started).toBeLessThan(9_000);
        expect(r.stdout).toBe('');
        expect(r.stderr).toBe(
          'error: request cancelled; the session may have been created\n' +
            'hint: it was not sent again, to avoid a duplicate; look for it in the dashboard before creating it again\n',
        );
        expect(h.em.stats().sessionsCreated).toBe(1);
      });
    },
  );

  it.for(SIGNALS)('%s while waiting: 130, the session id and the resume command', async (sig) => {
    await withEm({}, async (h) => {
      const r = await h.run(['create', '-a', 'claude', '--wait', '[[never]] go'], {
        onSpawn: (child) =>
          void until(() => (h.em.stats().byRoute['GET /sessions/:id/threads/:tid/messages'] ?? 0) > 0).then(
            () => child.kill(sig),
          ),
      });
      expect(r.code).toBe(130);
      expect(r.stdout).toBe('');
      expect(h.em.stats().sessionsCreated).toBe(1);
      const id = r.stderr.match(SID)?.[0];
      expect(id).toBeDefined();
      expect(h.em.messages(id!).length).toBeGreaterThan(0);
      expect(r.stderr).toMatch(
        new RegExp(
          `^error: interrupted while waiting on session ${id}\\nhint: the session goes on; resume with: agents tail ${id} --thread ${SID.source} --until-final\\n$`,
        ),
      );
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
      const killer = setTimeout(() => child.kill('SIGKILL'), 20_000);
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
      await until(() => h.em.messages(s.id).length > 3);
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
});
