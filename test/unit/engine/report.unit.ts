import t from 'tap';
import { loadCorpusA, loadHalf } from '../../eval/corpus.ts';
import { scoreOnly } from '../../eval/geo.ts';

/**
 * A report that does not contradict itself (issue 24, item 5), on every strong and poor article of
 * the tuning half and corpus-a: the density card does not call a phrase "spread evenly" beside a
 * long gap or a single match; quoted sentences are cut at a word boundary; no markup in the text a
 * client reads.
 */

const topics = [...loadHalf('tuning'), ...loadCorpusA()];
const runs = topics.flatMap((tp) =>
  (['strong', 'poor'] as const).map((v) => ({
    id: `${tp.id}/${v}`,
    language: tp.language,
    s: scoreOnly(
      { id: tp.id, language: tp.language, keyword: tp.keyword, content: tp[v], format: 'markdown', serp: tp.serp },
      tp[v],
    ),
  })),
);

t.test('density: "spread evenly" only with several matches and no long gap', async (t) => {
  for (const { id, s } of runs) {
    const d = s.outcomes.find((o) => o.id === 'density')!;
    const gap = Number(/longest gap (\d+)%|najdłuższa luka (\d+)%/.exec(d.summary)?.slice(1).find(Boolean) ?? 0);
    const matches = Number(/(\d+) (?:in|na) /.exec(d.summary)?.[1] ?? 0);
    const even = d.strengths.some((x) => /spread evenly|rozłożona równomiernie/.test(x));
    if (even) t.ok(gap <= 30 && matches > 1, `${id}: ${d.summary}`);
    // Never praised beside a stuffing or over-use problem of the same card.
    if (even)
      t.notOk(
        d.findings.some((f) => f.kind === 'stuffing'),
        `${id}: even, yet stuffed`,
      );
    // Nor beside its own count of uses in stuffed sentences ("3 of them in stuffed sentences").
    if (even) t.notMatch(d.summary, /stuffed|przeładowanych|überladen/u, `${id}: even, yet counted as stuffed`);
    const claimsRange = d.strengths.some((x) => /natural range|naturalnym zakresie/.test(x));
    if (claimsRange)
      t.notOk(
        d.findings.some((f) => /use the keyphrase more|częściej/i.test(f.title)),
        id,
      );
  }
});

t.test('quoted sentences are cut at word boundaries; no markup in client text', async (t) => {
  for (const { id, s } of runs) {
    for (const o of s.outcomes) {
      for (const text of [
        o.summary,
        ...o.strengths,
        ...o.findings.flatMap((f) => [f.title, f.problem, f.suggestion]),
      ]) {
        t.notMatch(text, /<\/?[a-z][a-z0-9]*[\s>]/i, `${id} ${o.id}: no markup`);
        for (const m of text.matchAll(/["„]([^"”]+?)…?["”]/gu)) {
          const q = m[1]!;
          if (m[0].includes('…')) t.match(q, /[\p{L}\p{N}.!?)]$/u, `${id} ${o.id}: "${q}" ends on a whole word`);
        }
      }
    }
  }
});

/**
 * Units and examples in the report's language: an English report never shows a Polish currency
 * (and a Polish one never a dollar or pound sign) that the content itself does not use.
 */
const FOREIGN: Record<string, RegExp> = {
  en: /\d\s?zł|\bzł\b|złotych|\bPLN\b/u,
  de: /\d\s?zł|\bzł\b|złotych|\bPLN\b/u,
  pl: /[$£]\s?\d|\bUSD\b|\bGBP\b/u,
};

t.test('units and examples in the report language', async (t) => {
  for (const tp of topics)
    for (const v of ['strong', 'poor'] as const) {
      const s = runs.find((r) => r.id === `${tp.id}/${v}`)!.s;
      const foreign = FOREIGN[tp.language]!;
      if (foreign.test(tp[v])) continue;
      for (const o of s.outcomes)
        for (const text of [
          o.summary,
          ...o.strengths,
          ...o.findings.flatMap((f) => [f.title, f.problem, f.suggestion]),
        ])
          t.notMatch(text, foreign, `${tp.id}/${v} ${o.id}: no foreign unit the content does not use`);
    }
});

t.test("the engine's ids (intents, page types) never reach Polish or German client text", async (t) => {
  const IDS =
    /[„"](?:informational|instructional|commercial|transactional|navigational|product|listicle|glossary|how-to)[”"]/;
  for (const { id, s } of runs.filter((r) => r.language !== 'en'))
    for (const o of s.outcomes)
      for (const f of o.findings) t.notOk(IDS.test(`${f.problem} ${f.suggestion}`), `${id} ${o.id}: ${f.problem}`);
});

t.test('a measured figure in Polish and German client text has a decimal comma ("3,29%")', async (t) => {
  for (const { id, s } of runs.filter((r) => r.language !== 'en'))
    for (const o of s.outcomes)
      for (const f of o.findings)
        if (f.figure) t.notMatch(f.figure, /\d\.\d+\s?%/, `${id} ${o.id} ${f.kind}: ${f.figure}`);
});
