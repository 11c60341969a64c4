import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { repoRoot } from '../../infra/local/kafkaJars.ts';
import { syntheticPage } from '../engine.ts';

/**
 * What the soak's audits reach out to: a local web of article pages (standing in for the web),
 * and an HTTPS webhook receiver with the test certificate that counts the POSTs of each delivery.
 */
export interface Sites {
  site: string;
  webhookUrl: string;
  /** The test CA, for the service's NODE_EXTRA_CA_CERTS. */
  caPath: string;
  /** POSTs received, by X-Service-Delivery (the job id). */
  webhookPosts: Record<string, number>;
  close(): Promise<void>;
}

const tls = join(repoRoot, 'test', 'fixtures', 'http', 'tls');

export async function startSites(): Promise<Sites> {
  const web = createHttpServer((req, res) =>
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end(syntheticPage(300 + (req.url!.length % 7) * 50)),
  );
  const webhookPosts: Record<string, number> = {};
  const caPath = join(tls, 'test-only.cert.pem');
  const receiver = createHttpsServer(
    { key: readFileSync(join(tls, 'test-only.key.pem')), cert: readFileSync(caPath) },
    (req, res) => {
      const id = String(req.headers['x-service-delivery'] ?? 'none');
      webhookPosts[id] = (webhookPosts[id] ?? 0) + 1;
      req.resume();
      req.on('end', () => res.writeHead(200).end());
    },
  );
  const listen = (s: Server) =>
    new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));
  const close = (s: Server) => new Promise<void>((r) => s.close(() => r()));
  return {
    site: `http://127.0.0.1:${await listen(web)}`,
    webhookUrl: `https://127.0.0.1:${await listen(receiver)}/hook`,
    caPath,
    webhookPosts,
    close: async () => {
      web.closeAllConnections();
      receiver.closeAllConnections();
      await Promise.all([close(web), close(receiver)]);
    },
  };
}
