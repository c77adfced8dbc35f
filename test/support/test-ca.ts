// A test certificate authority for the emulator over HTTPS (scripts/test-ca.mjs, made with openssl once per
// test file that asks): the authority's file for a client's NODE_EXTRA_CA_CERTS, and the server's
// certificate and key for startEmulator's tls option.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTestCa, type TestCa } from '../../scripts/test-ca.mjs';

let made: TestCa | undefined;

/** The file's test authority, made on the first call. */
export function testCa(): TestCa {
  made ??= makeTestCa(mkdtempSync(join(tmpdir(), 'agents-test-ca-')));
  return made;
}
