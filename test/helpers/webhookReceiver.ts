import { createServer, type Server } from 'node:https';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Test } from 'tap';

/** The self-signed test certificate (names public.test, localhost; addresses 127.0.0.1, 127.0.0.2). */
export const testCaPath = fileURLToPath(new URL('../fixtures/http/tls/test-only.cert.pem', import.meta.url));
export const testCa = readFileSync(testCaPath, 'utf8');
const testKey = readFileSync(fileURLToPath(new URL('../fixtures/http/tls/test-only.key.pem', import.meta.url)), 'utf8');

export interface Received {
  path: string;
  /** Arrival time, ms (wall clock, high resolution). */
  at: number;
  headers: IncomingHttpHeaders;
  /** The body exactly as it came over the wire: what a signature is verified against. */
  rawBody: string;
}

/**
 * How to answer the n-th request to a path: a status (3xx ones get a Location to /elsewhere), or
 * `hang`: read the request and never answer (the sender's timeout, or a crash mid-attempt).
 */
export type Reply = number | 'hang';

/**
 * A real HTTPS webhook receiver on 127.0.0.1 with the test certificate. Each path answers by its
 * script, one reply per request, repeating the last one; paths without a script answer 200.
 */
export async function startWebhookReceiver(t: Test): Promise<{
  base: string;
  received: Received[];
  script(path: string, replies: Reply[]): string;
  requestsTo(path: string): Received[];
  server: Server;
}> {
  const received: Received[] = [];
  const scripts = new Map<string, Reply[]>();
  const server = createServer({ key: testKey, cert: testCa }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const n = received.filter((r) => r.path === path).length;
      received.push({
        path,
        at: performance.timeOrigin + performance.now(),
        headers: req.headers,
        rawBody: Buffer.concat(chunks).toString('utf8'),
      });
      const replies = scripts.get(path) ?? [200];
      const reply = replies[Math.min(n, replies.length - 1)]!;
      if (reply === 'hang') return;
      const headers: Record<string, string> = { 'content-type': 'text/plain' };
      if (reply >= 300 && reply <= 399) headers.location = `${base}/elsewhere`;
      res.writeHead(reply, headers).end(`answer ${reply}`);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.teardown(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return {
    base,
    received,
    script(path, replies) {
      scripts.set(path, replies);
      return `${base}${path}`;
    },
    requestsTo: (path) => received.filter((r) => r.path === path),
    server,
  };
}
