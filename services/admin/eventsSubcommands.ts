import { parsePosition } from '../../events/envelope.ts';
import { AppError } from '../../core/errors.ts';
import { parseOptions, prefixed, time, UsageError } from './args.ts';
import { subcommand, type Subcommand } from './subcommand.ts';
import type { Config } from '../../infra/config.ts';
import type { KafkaSettings } from '../../infra/kafka/client.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import type { ExportOptions } from './eventsExport.ts';

/** The log the service's consumers read: the Kafka topic when KAFKA_BROKERS is set, the store otherwise. */
async function exportLog(pool: Pool, config: Config, o: ExportOptions, signal?: AbortSignal): Promise<void> {
  if (!config.kafkaBrokers) {
    const { exportFromStore } = await import('./eventsExport.ts');
    await exportFromStore(pool, o, toStdout, signal);
    return;
  }
  const settings: KafkaSettings = {
    brokers: config.kafkaBrokers,
    topicPrefix: config.kafkaTopicPrefix,
    partitions: config.partitions,
    clientId: 'audit-admin',
    schemaRegistry: config.schemaRegistry,
  };
  const [{ createKafka }, { createLogger }, { exportFromKafka }] = await Promise.all([
    import('../../infra/kafka/client.ts'),
    import('../../infra/logger.ts'),
    import('./eventsKafka.ts'),
  ]);
  // kafkajs logs retriable hiccups (a coordinator not ready yet) as errors; a real failure is thrown
  // and printed as the CLI's JSON error, so its log stays quiet and stderr stays readable.
  await exportFromKafka(createKafka(settings, createLogger('admin', 'fatal', 2)), settings, o, toStdout, signal);
}

/** Writes to stdout, waiting when the reader is slower (a pipe into another tool). */
const toStdout = (chunk: string): Promise<void> | void => {
  if (!chunk || process.stdout.write(chunk)) return;
  return new Promise((r) => process.stdout.once('drain', () => r()));
};

const parse =
  (follow: boolean) =>
  async (args: string[]): Promise<ExportOptions> => {
    const o = parseOptions(args, {
      from: { type: 'string' },
      type: { type: 'string' },
      account: { type: 'string' },
      format: { type: 'string' },
      progress: { type: 'boolean' },
    });
    const format = o.format ?? 'jsonl';
    if (format !== 'jsonl' && format !== 'csv') throw new UsageError(`--format must be jsonl or csv, got "${format}"`);
    const types = o.type
      ?.split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    if (types?.length) {
      // Checked against the catalogue (every type's schema), loaded here for it.
      const { catalogue } = await import('../../events/catalogue.ts');
      for (const type of types)
        if (!catalogue.some((d) => d.type === type))
          throw new AppError('invalid_request', `--type: unknown event type "${type}" (see docs/events.md)`);
    }
    const from =
      o.from === undefined
        ? undefined
        : /^\d+:\d+$/.test(o.from)
          ? { position: parsePosition(o.from) }
          : { time: time(o.from, 'from') };
    return {
      from,
      types,
      accountId: o.account === undefined ? undefined : prefixed(o.account, 'account', 'usr_'),
      format,
      follow,
      // On a terminal by default; `--progress` asks for it anyway (to stderr, never mixed with the data).
      progress: o.progress ?? Boolean(process.stderr.isTTY),
    };
  };

/** `events export|tail` (issue 15): the log for data teams, as JSON lines or CSV on stdout. */
export const EVENTS_SUBCOMMANDS: Record<string, Subcommand<unknown>> = {
  'events export': subcommand({
    usage:
      'events export [--from TIME|POSITION] [--type T[,T...]] [--account usr_...] [--format jsonl|csv] [--progress]',
    parse: parse(false),
    async run(pool, o, config) {
      await exportLog(pool, config, o);
      return { output: null, ok: true, text: '' };
    },
  }),
  'events tail': subcommand({
    usage: 'events tail [--from TIME|POSITION] [--type T[,T...]] [--account usr_...] [--format jsonl|csv]',
    parse: parse(true),
    async run(pool, o, config) {
      const stop = new AbortController();
      for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => stop.abort());
      await exportLog(pool, config, o, stop.signal);
      return { output: null, ok: true, text: '' };
    },
  }),
};
