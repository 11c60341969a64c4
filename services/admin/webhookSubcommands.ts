import { AppError } from '../../core/errors.ts';
import { parseOptions, prefixed, required } from './args.ts';
import { subcommand, type Subcommand } from './subcommand.ts';

/** `webhooks list` (issue 6): a job's webhook attempts and outcome, from its delivery stream. */
export const WEBHOOK_SUBCOMMANDS: Record<string, Subcommand<unknown>> = {
  'webhooks list': subcommand({
    usage: 'webhooks list --job job_...',
    parse(args) {
      const o = parseOptions(args, { job: { type: 'string' } });
      return { jobId: prefixed(required(o.job, 'job'), 'job', 'job_') };
    },
    async run(pool, o) {
      const [{ webhookStreamId }, { readStream }, { deliveryHistory }] = await Promise.all([
        import('../../events/webhook/events.ts'),
        import('../../infra/eventStore/eventStore.ts'),
        import('../webhooks/history.ts'),
      ]);
      const history = deliveryHistory(await readStream(pool, webhookStreamId(o.jobId)));
      if (!history)
        throw new AppError(
          'not_found',
          `no webhook was scheduled for ${o.jobId} (unknown job, no webhookUrl, or its audit has not finished)`,
        );
      return { output: history, ok: true };
    },
  }),
};
