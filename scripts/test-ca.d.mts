/** A test certificate authority's file (for NODE_EXTRA_CA_CERTS) and a server certificate it signed. */
export interface TestCa {
  ca: string;
  cert: string;
  key: string;
}
export function makeTestCa(dir: string): TestCa;
