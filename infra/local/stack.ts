import type { Logger } from '../logger.ts';
import { startKafka } from './kafka.ts';
import { startPostgres, tempPostgresDir } from './postgres.ts';

/**
 * The local stack for tests and developers: a throw-away PostgreSQL and Kafka, each started only
 * when the environment does not already point at one (DATABASE_URL, KAFKA_BROKERS). Both start in
 * parallel; if one fails, the other is stopped again before the error is thrown.
 */
export interface LocalStack {
  databaseUrl: string;
  kafkaBrokers: string;
  /** What was started here (and will be stopped by stop()), with start-up times. */
  started: { name: 'postgres' | 'kafka'; address: string; ms: number }[];
  stop(): Promise<void>;
}

export async function startLocalStack(opts: {
  log: Logger;
  env?: Record<string, string | undefined>;
  postgres?: boolean;
  kafka?: boolean;
}): Promise<LocalStack> {
  const env = opts.env ?? process.env;
  const started: LocalStack['started'] = [];
  const stoppers: (() => Promise<void>)[] = [];
  const timed = async <T>(
    name: 'postgres' | 'kafka',
    start: () => Promise<T & { stop(): Promise<void> }>,
    address: (t: T) => string,
  ) => {
    const t0 = Date.now();
    const server = await start();
    stoppers.push(() => server.stop());
    started.push({ name, address: address(server), ms: Date.now() - t0 });
    return address(server);
  };
  const stop = async () => {
    await Promise.all(
      stoppers
        .splice(0)
        .map((s) => s().catch((e: unknown) => opts.log.error({ err: e }, 'stopping the local stack failed'))),
    );
  };

  const wantPostgres = (opts.postgres ?? true) && !env.DATABASE_URL;
  const wantKafka = (opts.kafka ?? true) && !env.KAFKA_BROKERS;
  const results = await Promise.allSettled([
    wantPostgres
      ? timed(
          'postgres',
          async () => startPostgres({ dataDir: await tempPostgresDir(), persistent: false, log: opts.log }),
          (s) => s.url,
        )
      : Promise.resolve(env.DATABASE_URL ?? ''),
    wantKafka
      ? timed(
          'kafka',
          () => startKafka({ log: opts.log }),
          (s) => s.brokers,
        )
      : Promise.resolve(env.KAFKA_BROKERS ?? ''),
  ]);
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed.length) {
    await stop();
    throw failed.length === 1
      ? failed[0]!.reason
      : new AggregateError(
          failed.map((f) => f.reason),
          'the local stack did not start',
        );
  }
  const [databaseUrl, kafkaBrokers] = results.map((r) => (r as PromiseFulfilledResult<string>).value) as [
    string,
    string,
  ];
  return { databaseUrl, kafkaBrokers, started, stop };
}
