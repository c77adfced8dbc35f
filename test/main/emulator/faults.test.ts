// Fault injection: every mode, the rate, the method filter, seeding and the counters.
import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Agent, request } from 'undici';
import type { FaultMode } from '../../../src/emulator/index.js';
import type { RunningEmulator } from '../../../src/emulator/index.js';
import { call, create, KEY, start } from '../../support/api-calls.js';

const SID = '00000000-0000-4000-8000-000000000000';
const always = (mode: FaultMode, extra = {}) => ({ rate: 1, modes: [mode], ...extra });
const createBody = { agent_name: 'claude', message: 'x' };

/** Sends raw HTTP/1.1 and collects everything until the server closes the connection. */
function raw(em: RunningEmulator, text: string): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const sock = connect(em.port, '127.0.0.1', () => sock.write(text));
    sock.on('data', (c: Buffer) => chunks.push(c));
    sock.on('close', () => resolve(Buffer.concat(chunks)));
    sock.on('error', () => undefined);
  });
}

describe('fault modes', () => {
  const statuses: [FaultMode, number, string][] = [
    ['500', 500, 'INTERNAL'],
    ['502', 502, 'BAD_GATEWAY'],
    ['503', 503, 'SERVICE_UNAVAILABLE'],
    ['504', 504, 'GATEWAY_TIMEOUT'],
  ];
  it.each(statuses)('%s answers JSON %d without processing the request', async (mode, status, code) => {
    const em = await start({ faults: always(mode) });
    const res = await call(em, 'POST', '/rest/v1/sessions', { body: createBody });
    expect(res.status).toBe(status);
    expect(res.json).toMatchObject({ code });
    expect(em.stats()).toMatchObject({ sessionsCreated: 0, faultsInjected: 1, requests: 1 });
  });

  it('html-502 answers an HTML page like a real gateway', async () => {
    const em = await start({ faults: always('html-502') });
    const res = await call(em, 'GET', `/rest/v1/sessions/${SID}`);
    expect(res.status).toBe(502);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('502 Bad Gateway');
    expect(res.json).toBeUndefined();
  });

  it('429 answers a plain-text 429 (not the JSON of the real limiter)', async () => {
    const em = await start({ faults: always('429') });
    const res = await call(em, 'GET', `/rest/v1/sessions/${SID}`);
    expect(res.status).toBe(429);
    expect(res.json).toBeUndefined();
    expect(em.stats()).toMatchObject({ rejected429: 0, faultsInjected: 1 });
  });

  it('reset destroys the connection before processing: the POST did not happen', async () => {
    const em = await start({ faults: always('reset') });
    await expect(call(em, 'POST', '/rest/v1/sessions', { body: createBody })).rejects.toThrow();
    expect(em.stats().sessionsCreated).toBe(0);
    em.setFaults(undefined);
    expect((await call(em, 'POST', '/rest/v1/sessions', { body: createBody })).status).toBe(201);
  });

  it('reset-after-commit creates the session, then hangs up without an answer', async () => {
    const em = await start({ faults: always('reset-after-commit') });
    await expect(call(em, 'POST', '/rest/v1/sessions', { body: createBody })).rejects.toThrow();
    expect(em.stats().sessionsCreated).toBe(1);
    em.setFaults(undefined);
    const s = await create(em, 'visible');
    em.setFaults(always('reset-after-commit'));
    await expect(
      call(em, 'POST', `/rest/v1/sessions/${s.id}/messages`, { body: { message: 'follow-up' } }),
    ).rejects.toThrow();
    // The follow-up exists even though its sender never heard back.
    expect(
      em
        .messages(s.id)
        .filter((m) => m.role === 'user')
        .map((m) => m.message),
    ).toEqual(['visible', 'follow-up']);
    expect(em.stats().followUps).toBe(1);
  });

  it('reset-after-commit applies to POST only: a GET goes through', async () => {
    const em = await start({ faults: always('reset-after-commit') });
    expect((await call(em, 'GET', `/rest/v1/sessions/${SID}`)).status).toBe(404);
    expect(em.stats().faultsInjected).toBe(0);
  });

  it('truncate promises the full Content-Length, sends half the body, then closes', async () => {
    const em = await start({ faults: always('truncate') });
    const s = await raw(
      em,
      `GET /rest/v1/sessions/${SID} HTTP/1.1\r\nHost: x\r\nAuthorization: ApiKey ${KEY}\r\n\r\n`,
    );
    const text = s.toString('utf8');
    const [head, body = ''] = text.split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 404/);
    const length = Number(/content-length: (\d+)/i.exec(head ?? '')?.[1]);
    expect(length).toBeGreaterThan(10);
    expect(Buffer.byteLength(body)).toBe(Math.floor(length / 2));
    await expect(call(em, 'GET', `/rest/v1/sessions/${SID}`)).rejects.toThrow();
  });

  it('slow processes the request at once but answers only after slowMs', async () => {
    const em = await start({ faults: always('slow', { slowMs: 5000 }) });
    const impatient = new Agent({ headersTimeout: 100 });
    await expect(
      request(`${em.url}/rest/v1/sessions`, {
        method: 'POST',
        dispatcher: impatient,
        headers: { authorization: `ApiKey ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify(createBody),
      }),
    ).rejects.toThrow(/timeout/i);
    await impatient.close();
    // The client gave up, yet the session was created.
    expect(em.stats().sessionsCreated).toBe(1);
    em.setFaults(always('slow', { slowMs: 20 }));
    expect((await call(em, 'GET', `/rest/v1/sessions/${SID}`)).status).toBe(404);
  });
});

describe('fault selection', () => {
  async function statusesOf(seed: number, n: number, rate = 0.5) {
    const em = await start({ faults: { rate, modes: ['503', '502'], seed } });
    const out: number[] = [];
    for (let i = 0; i < n; i += 1) out.push((await call(em, 'GET', `/rest/v1/sessions/${SID}`)).status);
    return { out, stats: em.stats() };
  }

  it('hits about `rate` of the requests, picks among the modes, and counts each hit', async () => {
    const { out, stats } = await statusesOf(7, 200);
    const faulted = out.filter((s) => s !== 404).length;
    expect(faulted).toBeGreaterThan(60);
    expect(faulted).toBeLessThan(140);
    expect(new Set(out)).toEqual(new Set([404, 502, 503]));
    expect(stats.faultsInjected).toBe(faulted);
    expect(stats.requests).toBe(200);
  });

  it('is deterministic with a seed', async () => {
    const a = await statusesOf(42, 30);
    const b = await statusesOf(42, 30);
    expect(a.out).toEqual(b.out);
  });

  it('only touches the given methods', async () => {
    const em = await start({ faults: { rate: 1, modes: ['503'], methods: ['POST'] } });
    expect((await call(em, 'GET', `/rest/v1/sessions/${SID}`)).status).toBe(404);
    expect((await call(em, 'POST', '/rest/v1/sessions', { body: createBody })).status).toBe(503);
  });

  it('rate 0 never faults, and setFaults turns injection on and off', async () => {
    const em = await start({ faults: { rate: 0, modes: ['503'] } });
    expect((await call(em, 'GET', `/rest/v1/sessions/${SID}`)).status).toBe(404);
    em.setFaults(always('503'));
    expect((await call(em, 'GET', `/rest/v1/sessions/${SID}`)).status).toBe(503);
    em.setFaults(undefined);
    expect((await call(em, 'GET', `/rest/v1/sessions/${SID}`)).status).toBe(404);
    expect(em.stats().byRoute['GET /sessions/:id']).toBe(3);
    em.resetStats();
    expect(em.stats()).toEqual({
      requests: 0,
      byRoute: {},
      sessionsCreated: 0,
      followUps: 0,
      rejected429: 0,
      faultsInjected: 0,
    });
  });
});
