// Bad input of every kind: the emulator answers it with the right status and keeps serving.
import { connect } from 'node:net';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { request } from 'undici';
import { call, create, KEY, start } from '../../support/api-calls.js';

const SID = '00000000-0000-4000-8000-000000000000';

describe('bad requests', () => {
  it('malformed JSON, a non-object body and invalid UTF-8 are 400 BAD_REQUEST', async () => {
    const em = await start();
    const s = await create(em, 'x');
    const bodies: (string | Buffer)[] = [
      '{"message": ',
      '',
      '[1,2]',
      'null',
      Buffer.from([0x7b, 0xff, 0x7d]),
    ];
    for (const path of ['/rest/v1/sessions', `/rest/v1/sessions/${s.id}/messages`]) {
      for (const rawBody of bodies) {
        const res = await call(em, 'POST', path, {
          rawBody,
          headers: { 'content-type': 'application/json' },
        });
        expect(res.status).toBe(400);
        expect(res.json).toMatchObject({ code: 'BAD_REQUEST', error: expect.any(String) as string });
      }
    }
  });

  it('a POST without application/json is 415', async () => {
    const em = await start();
    const body = JSON.stringify({ agent_name: 'claude', message: 'x' });
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'application/json; charset=latin1',
    ]) {
      const res = await call(em, 'POST', '/rest/v1/sessions', {
        rawBody: body,
        headers: { 'content-type': type },
      });
      expect(res.status).toBe(415);
      expect(res.json).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE' });
    }
    const none = await call(em, 'POST', '/rest/v1/sessions', { rawBody: body });
    expect(none.status).toBe(415);
    const ok = await call(em, 'POST', '/rest/v1/sessions', {
      rawBody: body,
      headers: { 'content-type': 'application/json; charset=UTF-8' },
    });
    expect(ok.status).toBe(201);
  });

  it("an unknown route is a framework's 404, not the API's error body; a known route with the wrong method is 405 with Allow", async () => {
    const em = await start();
    for (const path of ['/', '/rest/v1', '/rest/v2/sessions', '/rest/v1/sessions/', '/rest/v1/agents']) {
      const res = await call(em, 'GET', path);
      expect(res.status).toBe(404);
      // No `error` text: the API keeps that for a session or thread it does not have (a wrong base URL is told by it).
      expect(res.json).toEqual({ detail: 'Not Found' });
    }
    const get = await call(em, 'GET', '/rest/v1/sessions');
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    const del = await call(em, 'DELETE', `/rest/v1/sessions/${SID}`);
    expect(del.status).toBe(405);
    expect(del.json).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
    expect(em.stats().byRoute['GET (unknown)']).toBe(5);
  });

  it('non-UUID path ids are 404 NOT_FOUND', async () => {
    const em = await start();
    const s = await create(em, 'x');
    for (const path of [
      '/rest/v1/sessions/123',
      '/rest/v1/sessions/not-a-uuid/messages',
      `/rest/v1/sessions/${s.id}/threads/xyz/messages`,
      '/rest/v1/sessions/..%2F..%2Fetc/messages',
    ]) {
      const res = await call(em, 'GET', path);
      expect(res.status).toBe(404);
      expect(res.json).toMatchObject({ code: 'NOT_FOUND' });
    }
  });

  it('a body over maxBodyBytes is 413, and the server still answers afterwards', async () => {
    const em = await start({ maxBodyBytes: 64 * 1024 });
    const huge = Buffer.alloc(8 * 1024 * 1024, 0x61);
    const declared = await call(em, 'POST', '/rest/v1/sessions', {
      rawBody: huge,
      headers: { 'content-type': 'application/json' },
    });
    expect(declared.status).toBe(413);
    expect(declared.json).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
    // A chunked upload (no Content-Length) is cut off once it crosses the limit.
    function* chunks() {
      for (let i = 0; i < 4096; i += 1) yield Buffer.alloc(16 * 1024, 0x61);
    }
    const chunked = await request(`${em.url}/rest/v1/sessions`, {
      method: 'POST',
      headers: { authorization: `ApiKey ${KEY}`, 'content-type': 'application/json' },
      body: Readable.from(chunks()),
    });
    expect(chunked.statusCode).toBe(413);
    await chunked.body.dump();
    expect(await create(em, 'still here')).toMatchObject({ title: 'still here' });
  });

  it('a body just under the limit is read', async () => {
    const em = await start({ maxBodyBytes: 1024 });
    const message = 'x'.repeat(1024 - JSON.stringify({ agent_name: 'claude', message: '' }).length);
    const res = await call(em, 'POST', '/rest/v1/sessions', { body: { agent_name: 'claude', message } });
    expect(res.status).toBe(201);
  });

  it('survives garbage on the wire and a client that hangs up mid-body', async () => {
    const em = await start();
    await new Promise<void>((resolve) => {
      const sock = connect(em.port, '127.0.0.1', () => sock.end('\x00\x01 NOT HTTP\r\n\r\n'));
      sock.on('data', () => undefined);
      sock.on('close', () => resolve());
      sock.on('error', () => resolve());
    });
    await new Promise<void>((resolve) => {
      const sock = connect(em.port, '127.0.0.1', () => {
        sock.write(
          `POST /rest/v1/sessions HTTP/1.1\r\nHost: x\r\nAuthorization: ApiKey ${KEY}\r\n` +
            'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"agent_na',
          () => {
            sock.destroy();
            resolve();
          },
        );
      });
    });
    expect(await create(em, 'alive')).toMatchObject({ title: 'alive' });
    expect(em.stats().sessionsCreated).toBe(1);
  });
});
