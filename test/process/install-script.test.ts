// install.sh under dash, against a release directory made by scripts/release-dir.mjs from this machine's
// one-file executable and served over HTTP on loopback, laid out as GitHub's releases are: the latest and
// a pinned version install and run; a tampered archive, a failed download and a machine without a build
// each end in a clear error, a non-zero exit and the `agents` already installed left as it was.
import { spawn } from 'node:child_process';
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
} from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, normalize } from 'node:path';
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

/** Runs install.sh under dash as `curl … | sh` would, with `env` over a PATH that has no `agents`. */
function install(env: Record<string, string>, path = process.env.PATH ?? '') {
  return new Promise<{ code: number | null; out: string }>((resolve, reject) => {
    const child = spawn('dash', ['-s'], {
      env: { HOME: join(scratch, 'home'), PATH: path, AGENTS_RELEASE_URL: url, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (out += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
    child.stdin.end(readFileSync(join(ROOT, 'install.sh')));
  });
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
    server = createServer((req, res) => {
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
});
