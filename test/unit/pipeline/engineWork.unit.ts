import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { audit, prepare } from '../../../services/pipeline/engineWork.ts';
import { auditContent } from '../../../services/engine/audit.ts';
import type { EngineInput } from '../../../services/engine/types.ts';
import { valueOf } from '../../../infra/workers/workerTask.ts';

const dir = join(import.meta.dirname, '..', '..', 'fixtures', 'engine', 'strong');
const articles = readdirSync(dir)
  .filter((f) => f.endsWith('.md'))
  .sort()
  .slice(0, 3);

// The pipeline's two calls (prepare, then audit with what prepare resolved) give, byte for byte,
// what one fresh audit of the same input gives: reusing the prepared document changes nothing.
for (const file of articles) {
  t.test(`${file}: prepare then audit equals a fresh audit`, async (t) => {
    const content = readFileSync(join(dir, file), 'utf8');
    const request: EngineInput = { content, format: 'text', url: null, keyword: null, language: null };
    const { keyword, language } = valueOf(prepare(request));
    const resolved = { ...request, keyword, language };
    const reused = valueOf(audit(resolved));
    t.equal(JSON.stringify(reused), JSON.stringify(auditContent(resolved)));
  });
}
