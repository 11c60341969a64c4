import { connect, createServer, type Socket } from 'node:net';

/**
 * A TCP proxy the soak can cut: 127.0.0.1:listenPort → 127.0.0.1:targetPort. cut() is a silent
 * partition, not a reset: connections stay open but nothing passes either way, and new ones are
 * accepted and left hanging, so the clients behind it learn of the fault only by their timeouts,
 * as across a broken network. heal() drops what the partition held (those connections would have
 * timed out) and forwards again.
 */
export interface CuttableProxy {
  port: number;
  cut(): void;
  heal(): void;
  close(): Promise<void>;
}

export async function startProxy(listenPort: number, targetPort: number): Promise<CuttableProxy> {
  let cut = false;
  const pairs = new Set<[Socket, Socket | undefined]>();
  const server = createServer((client) => {
    const pair: [Socket, Socket | undefined] = [client, undefined];
    pairs.add(pair);
    const drop = () => {
      client.destroy();
      pair[1]?.destroy();
      pairs.delete(pair);
    };
    client.on('error', drop).on('close', drop);
    if (cut) {
      client.pause(); // held, never answered
      return;
    }
    const upstream = connect({ host: '127.0.0.1', port: targetPort });
    pair[1] = upstream;
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(listenPort, '127.0.0.1', resolve);
  });
  return {
    port: listenPort,
    cut() {
      cut = true;
      for (const [client, upstream] of pairs) {
        client.unpipe();
        upstream?.unpipe();
        client.pause();
        upstream?.pause();
      }
    },
    heal() {
      cut = false;
      for (const [client, upstream] of [...pairs]) {
        client.destroy();
        upstream?.destroy();
      }
      pairs.clear();
    },
    async close() {
      for (const [client, upstream] of pairs) {
        client.destroy();
        upstream?.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
