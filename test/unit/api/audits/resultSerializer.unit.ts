import t from 'tap';
import { auditContent } from '../../../../services/engine/audit.ts';
import { toAuditResultV1 } from '../../../../services/engine/resultV1.ts';
import { serializeResult } from '../../../../services/api/audits/resultSerializer.ts';
import { sampleResultMeta } from '../../../helpers/resultMeta.ts';

const text = 'City bicycles need light frames, hub gears and good lights for daily riding in town. '.repeat(12);
const view = toAuditResultV1(auditContent({ content: text, format: 'text', url: null, keyword: 'city bicycle' }), {
  id: 'job_1',
  createdAt: '2026-09-01T10:00:00Z',
  completedAt: '2026-09-01T10:00:01Z',
  project: null,
  meta: sampleResultMeta(),
});
const codeOf = (fn: () => unknown): string | null => {
  try {
    fn();
    return null;
  } catch (e) {
    return (e as { code?: string }).code ?? 'thrown';
  }
};

t.test('a completed audit is written as its JSON once it matches AuditResultV1', async (t) => {
  t.same(JSON.parse(serializeResult(view)), view);
});

t.test('a document that does not match AuditResultV1 is an internal error, never sent', async (t) => {
  t.equal(
    codeOf(() => serializeResult({ ...view, scores: { cqs: 101, aiCitability: null } })),
    'internal_error',
  );
  t.equal(
    codeOf(() => serializeResult({ ...view, extra: 'internal' } as typeof view)),
    'internal_error',
  );
  t.equal(
    codeOf(() => serializeResult({ ...view, status: 'running' } as unknown as typeof view)),
    'internal_error',
  );
});
