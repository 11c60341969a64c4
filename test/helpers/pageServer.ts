import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Test } from 'tap';

export interface Page {
  status?: number;
  type?: string;
  body: string;
  /** Hold the answer until released (to catch a worker mid-fetch). */
  hold?: Promise<void>;
}

/** A local web for the pipeline's tests: path → page, on 127.0.0.1. */
export async function servePages(
  t: Test,
  pages: Record<string, Page>,
): Promise<{ base: string; hits: Map<string, number>; server: Server }> {
  const hits = new Map<string, number>();
  const server = createServer(async (req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const page = pages[path];
    if (!page) {
      res.writeHead(404, { 'content-type': 'text/html' }).end('<html><body>not found</body></html>');
      return;
    }
    if (page.hold) await page.hold;
    res.writeHead(page.status ?? 200, { 'content-type': page.type ?? 'text/html; charset=utf-8' }).end(page.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  );
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits, server };
}
