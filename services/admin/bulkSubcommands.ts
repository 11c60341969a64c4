import { integer, parseOptions, prefixed, required } from './args.ts';
import { subcommand, type Subcommand } from './subcommand.ts';

/**
 * `bulk watch` (issue 11): a live progress bar on stderr, one line per entry as it ends (status, CQS
 * or error), until the batch ends; then its final counts as JSON on stdout. It reads the batch's own
 * stream, so it works from any machine that reaches the database, whichever process runs the batch.
 */
export const BULK_SUBCOMMANDS: Record<string, Subcommand<unknown>> = {
  'bulk watch': subcommand({
    usage: 'bulk watch --id bulk_... [--interval-ms 500]',
    parse(args) {
      const o = parseOptions(args, { id: { type: 'string' }, 'interval-ms': { type: 'string' } });
      return {
        bulkId: prefixed(required(o.id, 'id'), 'id', 'bulk_'),
        intervalMs: o['interval-ms'] === undefined ? 500 : integer(o['interval-ms'], 'interval-ms', 50, 60_000),
      };
    },
    run: async (pool, o) => (await import('./bulkWatch.ts')).watchBulk(pool, o),
  }),
};
