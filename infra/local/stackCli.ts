/**
 * `npm run stack -- up [--pg-data DIR]`: starts PostgreSQL and Kafka for a developer, prints
 * `{"databaseUrl": ..., "kafkaBrokers": ...}` as one JSON line on stdout, and keeps them until
 * SIGINT/SIGTERM (Ctrl-C). PostgreSQL is throw-away unless --pg-data names a folder to keep it in
 * (e.g. ./.data/pg, the same one `npm start` uses). Logs go to stderr, so stdout is just the JSON,
 * e.g. `npm run -s stack -- up > stack.json &`, then point DATABASE_URL and KAFKA_BROKERS at it.
 */
import { pino } from 'pino';
import { startKafka } from './kafka.ts';
import { startPostgres, tempPostgresDir } from './postgres.ts';

const usage = 'usage: npm run stack -- up [--pg-data DIR]';
const [command, ...rest] = process.argv.slice(2);
if (command !== 'up') {
  console.error(usage);
  process.exit(2);
}
const pgDataIndex = rest.indexOf('--pg-data');
const pgData = pgDataIndex >= 0 ? rest[pgDataIndex + 1] : undefined;
if (pgDataIndex >= 0 && !pgData) {
  console.error(usage);
  process.exit(2);
}

// The project's logger settings, but on stderr: stdout carries the JSON for scripts.
const log = pino(
  { name: 'stack', level: process.env.LOG_LEVEL ?? 'info', base: { service: 'audit-service', role: 'stack' } },
  pino.destination(2),
);

const stops: (() => Promise<void>)[] = [];
let stopping = false;
async function shutdown(code: number): Promise<never> {
  if (!stopping) {
    stopping = true;
    await Promise.all(stops.map((stop) => stop().catch((e: unknown) => log.error({ err: e }, 'stop failed'))));
  }
  process.exit(code);
}
process.on('SIGINT', () => void shutdown(0));
process.on('SIGTERM', () => void shutdown(0));
process.on('SIGHUP', () => void shutdown(0));

try {
  // allSettled: if one fails, the other has finished starting (and registered its stop) before we stop.
  const results = await Promise.allSettled([
    (async () => {
      const dataDir = pgData ?? (await tempPostgresDir());
      const server = await startPostgres({ dataDir, persistent: pgData !== undefined, log });
      stops.push(server.stop);
      return server;
    })(),
    (async () => {
      const server = await startKafka({ log });
      stops.push(server.stop);
      return server;
    })(),
  ]);
  const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  const [postgres, kafka] = results.map((r) => (r as PromiseFulfilledResult<{ url?: string; brokers?: string }>).value);
  if (stopping) await new Promise(() => undefined); // a signal came during start-up; shutdown() exits
  process.stdout.write(`${JSON.stringify({ databaseUrl: postgres?.url, kafkaBrokers: kafka?.brokers })}\n`);
  log.info('stack up; Ctrl-C stops it');
  setInterval(() => undefined, 1 << 30); // stay up until a signal
} catch (error) {
  log.error({ err: error }, 'the stack did not start');
  await shutdown(1);
}
