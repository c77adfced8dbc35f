// The child process that talks to the credential store, whose calls block (a D-Bus service that never answers
// holds one for ever): a hang costs a kill, not the command. The secret goes through the pipes only. No import
// of ours: it runs as dist/keychain-helper.js or in the executable (scripts/binary/sea-main.cjs).
import type * as KeyringModule from '@napi-rs/keyring';

export interface KeychainRequest {
  op: 'get' | 'set' | 'delete';
  service: string;
  account: string;
  secret?: string;
}

/** A get's value (null: none), whether a delete found one; or `unavailable` (no store), `refused` (locked). */
export type KeychainAnswer =
  | { ok: true; value: string | null | boolean }
  | { ok: false; kind: 'unavailable' | 'refused'; message: string };

type Keyring = Pick<typeof KeyringModule, 'AsyncEntry'>;

export const KEYRING_LOADER = Symbol.for('agents.keyring-loader');

async function loadKeyring(): Promise<Keyring> {
  const loader = (globalThis as Record<symbol, unknown>)[KEYRING_LOADER];
  if (typeof loader === 'function') return (loader as () => Keyring)();
  // A dependency of the package, never bundled (scripts/build.mjs marks it external): a native addon.
  return await import('@napi-rs/keyring');
}

/** The store's first line without the secret, should a library ever quote it. */
function scrub(message: string, secret: string | undefined): string {
  const line = message.split('\n')[0]?.trim() ?? '';
  return secret === undefined || secret === '' ? line : line.split(secret).join('****');
}

/** keyring-rs's NoStorageAccess ("Couldn't access platform storage"): a store that is there said no. */
const kindOf = (message: string) =>
  /access platform|storage access|locked|denied|not allowed|dismissed|cancel/i.test(message)
    ? 'refused'
    : 'unavailable';

export async function answer(request: KeychainRequest): Promise<KeychainAnswer> {
  let keyring: Keyring;
  try {
    keyring = await loadKeyring();
  } catch (err) {
    const why = scrub(err instanceof Error ? err.message : String(err), undefined);
    return { ok: false, kind: 'unavailable', message: `no keychain library for this platform (${why})` };
  }
  try {
    // On Linux the Secret Service only: the library would otherwise fall back, silently, to the kernel's
    // keyring, which forgets everything at a reboot. Other platforms ignore the option.
    const entry = new keyring.AsyncEntry(request.service, request.account, {
      linux: { store: 'secret-service' },
    });
    if (request.op === 'get') return { ok: true, value: await entry.getPassword() };
    if (request.op === 'delete') return { ok: true, value: await entry.deleteCredential() };
    await entry.setPassword(request.secret ?? '');
    return { ok: true, value: true };
  } catch (err) {
    const message = scrub(err instanceof Error ? err.message : String(err), request.secret);
    return { ok: false, kind: kindOf(message), message };
  }
}

export async function serve(): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  let reply: KeychainAnswer;
  try {
    reply = await answer(JSON.parse(Buffer.concat(chunks).toString('utf8')) as KeychainRequest);
  } catch {
    reply = { ok: false, kind: 'unavailable', message: 'the keychain helper got no request it could read' };
  }
  process.stdout.write(JSON.stringify(reply), () => process.exit(0));
}

if (process.env.AGENTS_KEYCHAIN_HELPER === '1') void serve();
