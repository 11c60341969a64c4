import { createHash } from 'node:crypto';
import { workerTask } from '../../infra/workers/workerTask.ts';
import { runAudit } from '../engine/audit.ts';
import { prepareDocument, type PreparedDocument } from '../engine/prepare.ts';
import type { EngineInput } from '../engine/types.ts';

/**
 * The auditor's CPU work, run on the pool's threads (infra/workers/cpuPool.ts), never on the event loop.
 *
 * The analysis prepares (`prepare`), takes the credit, then scores (`audit`), and the scoring would
 * prepare the same document again. So a thread keeps what `prepare` made, under the content, the
 * SERP's pages and the keyword and language it resolved, which the `audit` call passes: the document is the one
 * prepareDocument makes for them (given or detected, the same strings), so reusing it changes no
 * byte of the result. Used once; a few kept, for audits whose scoring never comes (refused charge)
 * or runs on another thread (which prepares again).
 */
const prepared = new Map<string, PreparedDocument>();
const KEPT = 4;

const keyOf = (input: EngineInput, keyword: string, language: string): string =>
  createHash('sha256')
    .update(
      JSON.stringify([
        input.content,
        input.format ?? null,
        input.url ?? null,
        input.title ?? null,
        keyword,
        language,
        // The SERP's pages: a place in the keyword reads as news when they report an event (prepare.ts).
        (input.benchmark?.competitors ?? []).map((c) => [c.url, (c.html ?? c.text ?? '').length]),
      ]),
    )
    .digest('base64');

export const prepare = workerTask((input: EngineInput) => {
  const doc = prepareDocument(input);
  prepared.set(keyOf(input, doc.keyword, doc.language), doc);
  if (prepared.size > KEPT) prepared.delete(prepared.keys().next().value!);
  return { keyword: doc.keyword, language: doc.language, csi: doc.csi };
});

export const audit = workerTask((input: EngineInput) => {
  const key = input.keyword && input.language ? keyOf(input, input.keyword, input.language) : null;
  const doc = key === null ? undefined : prepared.get(key);
  if (key !== null) prepared.delete(key);
  return runAudit(input, doc).result;
});
