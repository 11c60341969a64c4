import t, { type Test } from 'tap';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { auditApi, bearer } from './audits/fixtures/auditApi.ts';

/**
 * Requests node's HTTP parser refuses before Fastify sees them, sent as raw bytes to a listening
 * app (inject would never reach the parser), and other transport refusals: every one in the
 * spec's error shape (spec 7) with X-Request-Id (spec 8).
 */
interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

const send = (port: number, bytes: string | Buffer): Promise<RawResponse> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (c) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const [head, ...rest] = text.split('\r\n\r\n');
      const [statusLine, ...lines] = head!.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
    });
    socket.write(bytes);
  });

const specShape = (t: Test, res: RawResponse, status: number, code: string, message: RegExp) => {
  t.equal(res.status, status, `status ${status}`);
  t.match(res.headers['content-type'], /^application\/json/);
  const body = JSON.parse(res.body);
  t.same(Object.keys(body).sort(), ['apiVersion', 'error']);
  t.equal(body.error.code, code);
  t.match(body.error.message, message);
  t.match(res.headers['x-request-id'], /^req_/, 'X-Request-Id');
  t.equal(body.error.requestId, res.headers['x-request-id'], 'requestId is the X-Request-Id');
  t.equal(body.apiVersion, 'v1.4');
};

t.test('errors of the HTTP parser and of the transport in the spec shape', async (t) => {
  const f = await auditApi(t);
  const a = await f.account();
  await f.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = f.app.server.address() as AddressInfo;
  const request = (header: string) =>
    `GET /api/v1/me HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nAuthorization: Bearer ${a.apiKey}\r\n${header}\r\n\r\n`;

  t.test('a well-formed request still works over the socket', async (t) => {
    const res = await send(port, request('X-Fine: yes'));
    t.equal(res.status, 200, JSON.stringify(res));
  });

  for (const [what, header] of [
    ['a bare CR', 'X-Bad: a\rb'],
    ['a bare LF', 'X-Bad: a\nb'],
    ['a NUL', 'X-Bad: a\u0000b'],
  ] as const) {
    t.test(`${what} in a header: 400 invalid_request`, async (t) => {
      specShape(t, await send(port, request(header)), 400, 'invalid_request', /not valid HTTP/);
    });
  }

  t.test('a header section over the size limit: 431 in the spec shape', async (t) => {
    specShape(
      t,
      await send(port, request(`X-Big: ${'x'.repeat(20_000)}`)),
      431,
      'invalid_request',
      /headers are too large/,
    );
  });

  t.test('text/plain is an unsupported media type like any other: 415', async (t) => {
    for (const [url, type] of [
      ['/api/v1/audits', 'text/plain'],
      ['/api/v1/audits', 'text/plain; charset=utf-8'],
      ['/api/v1/audits/bulk', 'text/plain'],
      ['/api/v1/audits', 'application/xml'],
    ] as const) {
      const res = await f.app.inject({
        method: 'POST',
        url,
        headers: { ...bearer(a.apiKey), 'content-type': type },
        payload: '{"url": "https://example.com/a"}',
      });
      t.equal(res.statusCode, 415, `${url} with ${type}`);
      t.match(res.json(), {
        error: { code: 'unsupported_media_type', requestId: res.headers['x-request-id'] },
        apiVersion: 'v1.4',
      });
    }
  });
});
