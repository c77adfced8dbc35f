// `agents emulator` as its own process (the built binary): serving until a real SIGINT or SIGTERM, then
// exiting 0. Its flags and refusals are tested in-process (test/main/emulator/command.test.ts).
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { BIN, ROOT, cliEnv } from '../support/run-cli.js';

function env(): NodeJS.ProcessEnv {
  return cliEnv({ NO_COLOR: '1' });
}
describe('agents emulator (the built binary, stopped by a real signal)', () => {
  it('serves on a free port, prints the URL and keys, answers, and exits 0 on SIGINT', async () => {
    const child = spawn(process.execPath, [BIN, 'emulator', '--port', '0', '--time-scale', '0.01'], {
      cwd: ROOT,
      env: env(),
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (c: Buffer) => {
        stdout += c.toString();
        const lines = stdout.split('\n');
        if (lines.length >= 3) resolve(lines[0] ?? '');
      });
      child.on('exit', () => reject(new Error(`exited early: ${stderr}`)));
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(stdout.split('\n')[1]).toBe('agents-dev-key\tdev');

    const res = await request(`${url}/rest/v1/sessions`, {
      method: 'POST',
      headers: { authorization: 'ApiKey agents-dev-key', 'content-type': 'application/json' },
      body: JSON.stringify({ agent_name: 'claude', message: 'hello' }),
    });
    expect(res.statusCode).toBe(201);
    const session = (await res.body.json()) as { id: string };
    const got = await request(`${url}/rest/v1/sessions/${session.id}`, {
      headers: { authorization: 'ApiKey agents-dev-key' },
    });
    expect(got.statusCode).toBe(200);
    await got.body.dump();

    child.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(stderr).toContain(`export AGENTS_BASE_URL=${url} AGENTS_API_KEY=agents-dev-key`);
    expect(stderr).toMatch(/stopped after 2 requests/);
  });

  it('prints JSON with --json, and exits 0 on SIGTERM', async () => {
    const child = spawn(process.execPath, [BIN, '--json', 'emulator', '--port', '0', '--key', 'k:w'], {
      cwd: ROOT,
      env: env(),
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    const line = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c: Buffer) => {
        out += c.toString();
        if (out.includes('\n')) resolve(out.split('\n')[0] ?? '');
      });
      child.on('exit', () => reject(new Error('exited early')));
    });
    child.kill('SIGTERM');
    expect(JSON.parse(line)).toEqual({
      url: expect.stringMatching(/^http:/) as string,
      keys: [{ key: 'k', workspace: 'w' }],
    });
    expect(await exited).toBe(0);
  });
});
