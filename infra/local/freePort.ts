import { createServer } from 'node:net';

/**
 * A TCP port on 127.0.0.1 that nobody listens on right now: the OS picks it (listen on port 0),
 * we read it and close. Another process could take it before our server binds; on a dev box or
 * CI that window is tiny, and it beats fixed ports that collide with a second run or a
 * developer's own servers.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => (port ? resolve(port) : reject(new Error('the OS gave no port'))));
    });
  });
}

/** Distinct free ports: the OS rarely hands the same port out twice in a row, and the set makes sure. */
export async function freePorts(count: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < count) ports.add(await freePort());
  return [...ports];
}
