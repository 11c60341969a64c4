import { readFile } from 'node:fs/promises';
import { AppError } from '../../core/errors.ts';
import { parseOptions, prefixed, required } from './args.ts';
import { subcommand, type Subcommand } from './subcommand.ts';

/** `apply edit` (issue 13): the owner's edited version of a revision, as the app would store it. */
export const APPLY_SUBCOMMANDS: Record<string, Subcommand<unknown>> = {
  'apply edit': subcommand({
    usage: 'apply edit --revision rev_... --file PATH [--actor NAME]',
    parse(args) {
      const o = parseOptions(args, {
        revision: { type: 'string' },
        file: { type: 'string' },
        actor: { type: 'string' },
      });
      return {
        revisionId: prefixed(required(o.revision, 'revision'), 'revision', 'rev_'),
        file: required(o.file, 'file'),
        actor: o.actor ?? 'owner (app)',
      };
    },
    async run(pool, o) {
      let text: string;
      try {
        text = await readFile(o.file, 'utf8');
      } catch (e) {
        throw new AppError('invalid_request', `cannot read ${o.file}: ${(e as Error).message}`);
      }
      const { editRevision } = await import('../apply/editRevision.ts');
      return { output: await editRevision(pool, o.revisionId, text, o.actor), ok: true };
    },
  }),
};
