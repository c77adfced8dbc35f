// install.sh under dash, against a release directory made by scripts/release-dir.mjs from this machine's
// one-file executable and served over HTTP on loopback, laid out as GitHub's releases are: the latest and
// a pinned version install and run; a tampered archive, a failed download, a machine without a build, no
// release address, and hostile releases (a link where `agents` should be, a server that never answers, a
// SHA256SUMS that does not end) each end in a clear error, a non-zero exit and the `agents` already
// installed left as it was.
import { spawn, spawnSync } from 'node:child_process';
import {
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
  chmodSync,
  cpSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, normalize } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archive, writeSums } from '../../scripts/release-dir.mjs';
import { BINARY, TARGET, binaryMissing } from '../support/binary.js';
import { ROOT } from '../support/run-cli.js';
import { missing, titled } from '../support/tools.js';

const why = binaryMissing() ?? missing('dash');
const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
const scratch = mkdtempSync(join(tmpdir(), 'agents-install-'));
const releases = join(scratch, 'releases');
let server: Server;
let url = '';
/** Requests the server has had, and bytes of the SHA256SUMS that does not end it has sent. */
let requests = 0;
let endlessSent = 0;
/** What the endless SHA256SUMS sends at most: far beyond any cap, and bounded so a run without one ends. */
const ENDLESS = 256 * 2 ** 20;

/**
 * Runs install.sh under dash as `curl … | sh` would, with `env` over a PATH that has no `agents` (an env
 * value of undefined removes it). A run still going after `guard` ms is killed with its downloads (a hang
 * guard, for the run that would hang without its time-out), and says so.
 */
function install(env: Record<string, string | undefined>, path = process.env.PATH ?? '', guard = 60_000) {
  const merged = { HOME: join(scratch, 'home'), PATH: path, AGENTS_RELEASE_URL: url, ...env };
  return new Promise<{ code: number | null; out: string; killed: boolean }>((resolve, reject) => {
    const child = spawn('dash', ['-s'], {
      env: Object.fromEntries(Object.entries(merged).filter(([, v]) => v !== undefined)),
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
    });
    let out = '';
    let killed = false;
    const killer = setTimeout(() => {
      killed = true;
      process.kill(-child.pid!, 'SIGKILL');
    }, guard);
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, out, killed });
    });
    child.stdin.end(readFileSync(join(ROOT, 'install.sh')));
  });
}

/** A directory of links to the programs install.sh uses, wget and not curl: its other way to download. */
function pathWithoutCurl(): string {
  const dir = join(scratch, 'no-curl');
  mkdirSync(dir, { recursive: true });
  const tools = ['uname', 'ls', 'ldd', 'grep', 'mktemp', 'rm', 'wget', 'head', 'wc', 'cat', 'awk', 'cut'];
  tools.push('sha256sum', 'tar', 'gzip', 'chmod', 'mkdir', 'cp', 'mv', 'sleep', 'bash', 'sed', 'dash');
  for (const tool of tools) {
    const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
    if (found && !existsSync(join(dir, tool))) symlinkSync(found, join(dir, tool));
  }
  return dir;
}

/** An install directory holding an `agents` that is not this one: what a failed install must leave. */
function withOldAgents(): string {
  const dir = mkdtempSync(join(scratch, 'bin-'));
  writeFileSync(join(dir, 'agents'), '#!/bin/sh\necho old\n');
  chmodSync(join(dir, 'agents'), 0o755);
  return dir;
}
const untouched = (dir: string) => {
  expect(readdirSync(dir)).toEqual(['agents']);
  expect(readFileSync(join(dir, 'agents'), 'utf8')).toBe('#!/bin/sh\necho old\n');
};

describe.skipIf(why !== undefined)(titled('install.sh', why), () => {
  beforeAll(async () => {
    // v<version> as the release workflow makes it, and "latest" as GitHub redirects it; v0.0.1 is the same
    // release with its archive changed after SHA256SUMS was written.
    const pinned = join(releases, 'download', `v${version}`);
    await archive(BINARY, pinned, { level: 1 });
    writeSums(pinned);
    cpSync(pinned, join(releases, 'latest', 'download'), { recursive: true });
    const tampered = join(releases, 'download', 'v0.0.1');
    cpSync(pinned, tampered, { recursive: true });
    const file = join(tampered, `agents-${TARGET}.tar.gz`);
    const bytes = readFileSync(file);
    bytes.writeUInt8(bytes.readUInt8(bytes.length - 100) ^ 0xff, bytes.length - 100);
    writeFileSync(file, bytes);
    // Releases whose SHA256SUMS is right for an archive that holds a link where agents-<target>/agents
    // should be: to a private key (what chmod 755 must not reach), or the directory itself a link.
    const key = join(scratch, 'home', '.ssh', 'id_rsa');
    mkdirSync(dirname(key), { recursive: true });
    writeFileSync(key, 'PRIVATE KEY\n');
    chmodSync(key, 0o600);
    writeFileSync(join(dirname(key), 'agents'), '#!/bin/sh\necho not ours\n');
    chmodSync(join(dirname(key), 'agents'), 0o600);
    for (const [kind, target, link] of [
      ['file-link', key, `agents-${TARGET}/agents`],
      ['dir-link', dirname(key), `agents-${TARGET}`],
    ] as const) {
      const stage = mkdtempSync(join(scratch, 'stage-'));
      mkdirSync(join(stage, `agents-${TARGET}`), { recursive: true });
      rmSync(join(stage, link), { recursive: true, force: true });
      symlinkSync(target, join(stage, link));
      const out = join(releases, kind, 'latest', 'download');
      mkdirSync(out, { recursive: true });
      const tar = spawnSync('tar', ['-czf', join(out, `agents-${TARGET}.tar.gz`), `agents-${TARGET}`], {
        cwd: stage,
      });
      expect(tar.status, String(tar.stderr)).toBe(0);
      writeSums(out);
    }
    server = createServer((req, res) => {
      requests += 1;
      const asked = new URL(req.url ?? '/', 'http://x').pathname;
      // A server that takes the request and never answers.
      if (asked.startsWith('/hang/')) return;
      // A SHA256SUMS that does not end (until ENDLESS bytes), as fast as the reader takes it.
      if (asked.startsWith('/endless/') && asked.endsWith('/SHA256SUMS')) {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        const chunk = Buffer.alloc(64 * 1024, '0');
        const pump = () => {
          while (!res.destroyed && endlessSent < ENDLESS) {
            endlessSent += chunk.length;
            if (!res.write(chunk)) return;
          }
          res.end();
        };
        res.on('drain', pump);
        pump();
        return;
      }
      const path = normalize(
        join(releases, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)),
      );
      if (!path.startsWith(releases) || !existsSync(path) || !path.match(/(SHA256SUMS|\.tar\.gz)$/)) {
        res.writeHead(404).end('Not Found');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      createReadStream(path).pipe(res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    // Three archives and two installed copies of a 150 MB executable: not left in the system's tmp.
    rmSync(scratch, { recursive: true, force: true });
  });

  it('installs the latest release into ~/.local/bin, which it says is not on the PATH, and it runs', async () => {
    const r = await install({});
    expect(r.code, r.out).toBe(0);
    const installed = join(scratch, 'home', '.local', 'bin', 'agents');
    expect(r.out).toContain(`installed agents ${version} to ${installed}`);
    expect(r.out).toContain(`export PATH="${join(scratch, 'home', '.local', 'bin')}:$PATH"`);
    expect(readFileSync(installed).equals(readFileSync(BINARY))).toBe(true);
  });

  it('AGENTS_VERSION pins a version and AGENTS_INSTALL_DIR replaces the agents there; no PATH hint when it is on the PATH', async () => {
    const dir = withOldAgents();
    const r = await install(
      { AGENTS_VERSION: version, AGENTS_INSTALL_DIR: dir },
      `${dir}:${process.env.PATH}`,
    );
    expect(r.code, r.out).toBe(0);
    expect(r.out).toContain(`downloading ${url}download/v${version}/agents-${TARGET}.tar.gz`);
    expect(r.out).not.toContain('not on your PATH');
    expect(readdirSync(dir)).toEqual(['agents']);
    expect(readFileSync(join(dir, 'agents')).equals(readFileSync(BINARY))).toBe(true);
  });

  it('a tampered archive: the checksum error, exit 1, and the agents there left as it was', async () => {
    const dir = withOldAgents();
    const r = await install({ AGENTS_VERSION: '0.0.1', AGENTS_INSTALL_DIR: dir });
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      /error: the checksum of agents-.+\.tar\.gz does not match the release's SHA256SUMS .*nothing was installed/,
    );
    untouched(dir);
  });

  it('a download that fails (no such version): the URL named, exit 1, nothing installed', async () => {
    const dir = withOldAgents();
    const r = await install({ AGENTS_VERSION: '9.9.9', AGENTS_INSTALL_DIR: dir });
    expect(r.code).toBe(1);
    expect(r.out).toContain(`error: could not download ${url}download/v9.9.9/SHA256SUMS`);
    untouched(dir);
  });

  it('an OS or architecture without a build: says so, exit 1, nothing downloaded or installed', async () => {
    const fake = join(scratch, 'fake-uname');
    mkdirSync(fake, { recursive: true });
    const dir = withOldAgents();
    for (const [s, m, says] of [
      ['FreeBSD', 'amd64', 'no build of agents for FreeBSD'],
      ['Linux', 'riscv64', 'no build of agents for linux on riscv64'],
    ]) {
      writeFileSync(join(fake, 'uname'), `#!/bin/sh\n[ "$1" = -s ] && echo ${s} || echo ${m}\n`);
      chmodSync(join(fake, 'uname'), 0o755);
      const r = await install({ AGENTS_INSTALL_DIR: dir }, `${fake}:${process.env.PATH}`);
      expect(r.code).toBe(1);
      expect(r.out).toContain(`error: ${says}`);
      expect(r.out).toContain('hint: install the npm package');
      expect(r.out).not.toContain('downloading');
      untouched(dir);
    }
  });

  it('no release address (this copy names no repository, AGENTS_RELEASE_URL unset): says so and how to give one, exit 1, nothing fetched', async () => {
    const dir = withOldAgents();
    const before = requests;
    for (const env of [{ AGENTS_RELEASE_URL: undefined }, { AGENTS_RELEASE_URL: '' }]) {
      const r = await install({ ...env, AGENTS_INSTALL_DIR: dir });
      expect(r.code, r.out).toBe(1);
      expect(r.out).toContain('error: no release address is configured');
      expect(r.out).toContain('hint: set AGENTS_RELEASE_URL');
      expect(r.out).not.toContain('downloading');
    }
    expect(requests).toBe(before);
    untouched(dir);
  });

  it.each(['file-link', 'dir-link'])(
    'an archive whose agents is a link (%s, to a private key): refused before anything touches it, exit 1, nothing installed',
    async (kind) => {
      const dir = withOldAgents();
      const key = join(scratch, 'home', '.ssh', 'id_rsa');
      const r = await install({ AGENTS_RELEASE_URL: `${url}${kind}`, AGENTS_INSTALL_DIR: dir });
      expect(r.code, r.out).toBe(1);
      expect(r.out).toContain(
        `error: agents-${TARGET}.tar.gz holds no agents-${TARGET}/agents as a regular file`,
      );
      expect(r.out).toContain('nothing was installed');
      expect((statSync(key).mode & 0o777).toString(8)).toBe('600');
      expect((statSync(join(dirname(key), 'agents')).mode & 0o777).toString(8)).toBe('600');
      expect(readFileSync(key, 'utf8')).toBe('PRIVATE KEY\n');
      untouched(dir);
    },
  );

  it.each(['curl', 'wget'])(
    'a server that never answers: %s gives up after AGENTS_DOWNLOAD_TIMEOUT, exit 1, nothing installed',
    async (tool) => {
      const dir = withOldAgents();
      const path = tool === 'curl' ? process.env.PATH : pathWithoutCurl();
      const r = await install(
        { AGENTS_RELEASE_URL: `${url}hang`, AGENTS_INSTALL_DIR: dir, AGENTS_DOWNLOAD_TIMEOUT: '1' },
        path,
        20_000,
      );
      expect(r.killed, r.out).toBe(false);
      expect(r.code, r.out).toBe(1);
      expect(r.out).toContain(`error: could not download ${url}hang/latest/download/SHA256SUMS`);
      expect(r.out).toContain('within 1 s: nothing was installed');
      expect(r.out).toContain('AGENTS_DOWNLOAD_TIMEOUT=SECONDS (now 1)');
      untouched(dir);
    },
  );

  it.each(['curl', 'wget'])(
    'a SHA256SUMS that does not end: %s stops at its cap, exit 1, and the temporary folder stays small',
    async (tool) => {
      const dir = withOldAgents();
      const tmp = mkdtempSync(join(scratch, 'tmp-'));
      const path = tool === 'curl' ? process.env.PATH : pathWithoutCurl();
      endlessSent = 0;
      const r = await install(
        { AGENTS_RELEASE_URL: `${url}endless`, AGENTS_INSTALL_DIR: dir, TMPDIR: tmp },
        path,
        30_000,
      );
      expect(r.killed, r.out).toBe(false);
      expect(r.code, r.out).toBe(1);
      expect(r.out).toContain(`error: ${url}endless/latest/download/SHA256SUMS is larger than`);
      // What was sent before the reader stopped: its cap and what the sockets and pipe hold, far from all.
      expect(endlessSent).toBeLessThan(ENDLESS / 8);
      expect(readdirSync(tmp)).toEqual([]);
      untouched(dir);
    },
  );
});
