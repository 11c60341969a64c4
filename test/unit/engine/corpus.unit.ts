import t from 'tap';
import { Value } from '@sinclair/typebox/value';
import { auditContent } from '../../../services/engine/audit.ts';
import { EngineResultSchema } from '../../../services/engine/resultSchema.ts';
import { dimensionName, profileLabel } from '../../../services/engine/labels.ts';
import { DIMENSION_IDS, type EngineResult } from '../../../services/engine/types.ts';
import { articles, inputOf, read } from '../../fixtures/engine/corpus.ts';

const dim = (r: EngineResult, id: string) => r.dimensions.find((d) => d.id === id)!.score;

t.test('the corpus has at least 12 articles: 5 English, 5 Polish, 1 German, several content types', async (t) => {
  t.ok(articles.length >= 12);
  t.ok(articles.filter((a) => a.language === 'en').length >= 5);
  t.ok(articles.filter((a) => a.language === 'pl').length >= 5);
  t.ok(articles.filter((a) => a.language === 'de').length >= 1);
  t.ok(new Set(articles.map((a) => a.profile)).size >= 6);
});

for (const a of articles) {
  t.test(`${a.id}: strong beats weakened`, async (t) => {
    const strong = auditContent(inputOf('strong', a));
    const weak = auditContent(inputOf('weak', a));
    t.ok(strong.scores.cqs! > weak.scores.cqs!, `CQS ${strong.scores.cqs} > ${weak.scores.cqs}`);
    for (const id of a.targets) t.ok(dim(strong, id) > dim(weak, id), `${id}: ${dim(strong, id)} > ${dim(weak, id)}`);

    for (const [name, r, content] of [
      ['strong', strong, read('strong', a)],
      ['weak', weak, read('weak', a)],
    ] as const) {
      t.ok(
        Value.Check(EngineResultSchema, r),
        `${name} validates: ${[...Value.Errors(EngineResultSchema, r)]
          .slice(0, 3)
          .map((e) => `${e.path} ${e.message}`)
          .join('; ')}`,
      );
      t.same(
        r.dimensions.map((d) => d.id),
        [...DIMENSION_IDS],
        'the ten dimensions in order',
      );
      t.equal(r.scores.aiCitability, null);
      t.equal(r.input.language, a.language, 'language detected');
      t.equal(r.input.keyword, a.keyword, 'the supplied keyword is the one used');
      for (const rec of r.recommendations) {
        if (rec.before) t.ok(content.includes(rec.before), `${name} BEFORE is verbatim: ${rec.before.slice(0, 40)}`);
        else
          t.ok(
            rec.insertAt && (rec.insertAt.placement === 'end' || content.includes(rec.insertAt.anchor)),
            'an addition names a verbatim anchor',
          );
        t.ok(rec.after.length > 0 || rec.actionType === 'remove', 'AFTER is concrete unless the change removes');
        // An author task (issue 23) changes nothing until the author writes it: a request, not a change.
        t.ok(
          rec.authorDataOnly ? rec.estimatedCqsDelta >= 0 : rec.estimatedCqsDelta > 0,
          'only changes that raise CQS are recommended',
        );
      }
      const ranks = { critical: 0, high: 1, medium: 2, bonus: 3 };
      for (let i = 1; i < r.recommendations.length; i++) {
        const p = r.recommendations[i - 1]!,
          q = r.recommendations[i]!;
        t.ok(
          ranks[p.priority] < ranks[q.priority] ||
            (ranks[p.priority] === ranks[q.priority] && p.estimatedCqsDelta >= q.estimatedCqsDelta),
          'sorted by priority, then gain',
        );
      }
      const s = r.summary!;
      t.equal(s.status, r.scores.cqs! >= 75 ? 'ok' : r.scores.cqs! >= 50 ? 'warn' : 'critical');
      t.equal(
        s.topChange?.id ?? null,
        (r.recommendations.find((x) => x.priority === 'critical') ?? r.recommendations[0])?.id ?? null,
      );
      t.equal(s.top10AvgCqs, null, 'no benchmark, no competitor average');
    }
    t.equal(strong.summary!.profile.id, a.profile, `profile ${strong.summary!.profile.id}`);
  });
}

t.test(
  'Polish content gets Polish labels; German gets German card labels, an English summary label, and says it is German',
  async (t) => {
    for (const a of articles) {
      const r = auditContent(inputOf('strong', a));
      const labelLang = a.language === 'pl' || a.language === 'de' ? a.language : 'en';
      for (const d of r.dimensions) t.equal(d.name, dimensionName(d.id, labelLang));
      // The summary's labels: Polish for Polish content, English otherwise (spec 2.3).
      t.equal(r.summary!.profile.label, profileLabel(r.summary!.profile.id, a.language === 'pl' ? 'pl' : 'en'));
      t.equal(r.summary!.languageSupport, a.language === 'de' ? 'partial' : 'full');
      if (a.language === 'pl') {
        const texts = r.dimensions.flatMap((d) => [d.summary, ...d.problems.map((p) => p.title)]);
        t.ok(
          texts.some((x) => /[ąęłśżźćńó]/.test(x)),
          'problem texts are Polish',
        );
        t.notOk(
          texts.some((x) => /\b(the|with|without)\b/.test(x)),
          'no English words in Polish texts',
        );
      }
    }
  },
);
