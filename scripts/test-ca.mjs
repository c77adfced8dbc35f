// A certificate authority of a moment, for the emulator over HTTPS (the bench's `show` and the start-up
// test): made with openssl at run time, so no private key is kept in the repository and none outlives the
// run. It signs one certificate for 127.0.0.1 and localhost; a client trusts it through NODE_EXTRA_CA_CERTS
// (the file `ca`), as a user behind a private authority does. ECDSA P-256, as many services' certificates
// are now; the client's handshake is what a run pays either way.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** openssl with `args` in `dir`; throws with its stderr when it fails or is missing. */
function openssl(dir, args) {
  const r = spawnSync('openssl', args, { cwd: dir, encoding: 'utf8' });
  if (r.error !== undefined) throw new Error(`openssl: ${r.error.message} (apt-get install openssl)`);
  if (r.status !== 0) throw new Error(`openssl ${args[0]} failed: ${r.stderr}`);
}

/**
 * Writes the authority (ca.pem) and a server certificate and key signed by it into `dir`; returns the path
 * of ca.pem and the server's certificate and key (PEM), as startEmulator's tls option takes them.
 */
export function makeTestCa(dir) {
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl(dir, [
    'req',
    '-x509',
    ...ec,
    '-keyout',
    'ca.key',
    '-out',
    'ca.pem',
    '-days',
    '2',
    '-subj',
    '/CN=agents test CA',
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign',
  ]);
  openssl(dir, ['req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1']);
  writeFileSync(
    join(dir, 'server.ext'),
    'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\nbasicConstraints=CA:FALSE\n',
  );
  openssl(dir, [
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.pem',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    'server.ext',
    '-out',
    'server.pem',
  ]);
  return {
    ca: join(dir, 'ca.pem'),
    cert: readFileSync(join(dir, 'server.pem'), 'utf8'),
    key: readFileSync(join(dir, 'server.key'), 'utf8'),
  };
}
