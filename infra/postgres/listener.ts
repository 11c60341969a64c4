import pg from 'pg';
import type { Logger } from '../logger.ts';
import type { Pool } from './pool.ts';

/** The listening connection itself, for what must live and die with it (a session advisory lock). */
export type ListenSession = Pick<pg.Client, 'query'>;

export interface ListenHandlers {
  /**
   * LISTEN took effect: from now on no notification on the channel is missed. `session` is the
   * listening connection, valid until onLost.
   */
  onListening(session: ListenSession): void;
  /** The connection is gone (notifications may be missed until onListening again). */
  onLost(): void;
  /** A notification arrived; its payload as sent (empty when none). */
  onNotification(payload: string): void;
}

/**
 * LISTENs on a channel over a connection of its own (not the pool's: the pool can end while this
 * one listens), reconnecting a second after it drops. Neither the connection nor the retry timer
 * keeps the process alive. Returns the function that stops it.
 */
export function listen(
  pool: Pool,
  channel: string,
  applicationName: string,
  log: Logger,
  handlers: ListenHandlers,
): () => Promise<void> {
  if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`unsafe channel name ${channel}`);
  let closed = false;
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | undefined;

  const connect = async (): Promise<void> => {
    if (closed) return;
    const c = new pg.Client({
      ...(pool as unknown as { options: pg.ClientConfig }).options,
      application_name: applicationName,
    });
    const lost = (err?: Error) => {
      if (client !== c) return;
      handlers.onLost();
      client = null;
      c.end().catch(() => undefined);
      if (!closed) {
        if (err) log.warn({ err, channel }, 'LISTEN connection lost; reconnecting');
        retry = setTimeout(() => void connect(), 1_000);
        retry.unref();
      }
    };
    client = c;
    c.on('error', lost);
    c.on('end', () => lost());
    c.on('notification', (m) => handlers.onNotification(m.payload ?? ''));
    try {
      await c.connect();
      (c as unknown as { connection?: { stream?: { unref?: () => void } } }).connection?.stream?.unref?.();
      if (closed) return void c.end().catch(() => undefined);
      await c.query(`LISTEN ${channel}`);
      handlers.onListening(c);
    } catch (err) {
      lost(err as Error);
    }
  };
  void connect();

  return async () => {
    closed = true;
    clearTimeout(retry);
    const c = client;
    client = null;
    await c?.end().catch(() => undefined);
  };
}
