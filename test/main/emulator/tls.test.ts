// The emulator over HTTPS (its tls option): what the bench's `show` and the start-up test go through, as
// the service is reached. The client must trust the test authority; the links it answers with say https.
import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import { describe, expect, it } from 'vitest';
import { emulator } from '../../support/emulator.js';
import { KEY } from '../../support/key.js';
import { testCa } from '../../support/test-ca.js';
import { missing, titled } from '../../support/tools.js';

const noOpenssl = missing('openssl');

/** One request to `url` over node:https trusting `ca` (or Node's own authorities alone). */
function send(
  url: string,
  o: { method?: string; body?: string; ca?: string },
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: o.method ?? 'GET',
        ca: o.ca,
        headers: { authorization: `ApiKey ${KEY}`, 'content-type': 'application/json' },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c: string) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject).end(o.body);
  });
}

describe.skipIf(noOpenssl !== undefined)(titled('the emulator over HTTPS', noOpenssl), () => {
  it('serves the API on an https:// address to a client that trusts its authority, and links with https', async () => {
    const tls = testCa();
    const em = await emulator({ tls });
    expect(em.url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const ca = readFileSync(tls.ca, 'utf8');
    const created = await send(`${em.url}/rest/v1/sessions`, {
      method: 'POST',
      ca,
      body: JSON.stringify({ agent_name: 'claude', message: 'hello' }),
    });
    expect(created.status, created.body).toBe(201);
    const session = JSON.parse(created.body) as { id: string; session_html_url: string };
    expect(session.session_html_url.startsWith(`${em.url}/`)).toBe(true);
    const read = await send(`${em.url}/rest/v1/sessions/${session.id}`, { ca });
    expect([read.status, (JSON.parse(read.body) as { id: string }).id]).toEqual([200, session.id]);
  });

  it('is refused by a client that does not trust its authority', async () => {
    const em = await emulator({ tls: testCa() });
    await expect(send(`${em.url}/rest/v1/sessions`, {})).rejects.toMatchObject({
      code: 'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
    });
  });
});
