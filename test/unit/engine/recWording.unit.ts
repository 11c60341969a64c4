import t from 'tap';
import { runAudit } from '../../../services/engine/audit.ts';
import { recLexiconFor } from '../../../services/engine/text/recLexicon.ts';
import { recArticles } from '../../eval/recArticles.ts';

/**
 * What a client reads is in the report's language and reads as the page writes it (an editor found
 * "Types of mutter", English impact lines and "[fill in: …" in German reports, and "informacyjna:
 * zrozumieć: …" in Polish ones), checked over the engine fixtures, the tuning half and corpus-a.
 */

const audits = recArticles().map((a) => {
  const run = runAudit(a.input);
  return { a, r: run.result, lang: run.result.input.language ?? a.language };
});

const ENGLISH =
  /\b(?:the|and|of|is|measured|once|Entities|Introduction|End of|Answer|Add|Remove|Cut|Types|How much|step by step|understand|publisher|explains|shows how)\b/u;

t.test('German audits: every recommendation text and the CSI card are German', async (t) => {
  const de = audits.filter((x) => x.lang === 'de');
  t.ok(de.length >= 8, `${de.length} German audits`);
  const english = de.flatMap(({ a, r }) => [
    ...r.recommendations.flatMap((x) =>
      [x.title, x.task ?? '', x.impact, x.evidence?.rule ?? '', x.section]
        .filter((s) => ENGLISH.test(s))
        .map((s) => `${a.name} ${x.id}: ${s}`),
    ),
    ...[r.csi.sourceContext, r.csi.centralSearchIntent, r.csi.predicate]
      .filter((s) => ENGLISH.test(s))
      .map((s) => `${a.name} csi: ${s}`),
  ]);
  t.same(english, []);
});

t.test('no slot marker of another language in any client text', async (t) => {
  const wrong = audits.flatMap(({ a, r, lang }) => {
    const foreign =
      lang === 'de'
        ? /\[(?:fill in|uzupełnij):/u
        : lang === 'pl'
          ? /\[(?:fill in|ergänzen):/u
          : /\[(?:uzupełnij|ergänzen):/u;
    const texts = [
      ...r.recommendations.flatMap((x) => [x.title, x.after, x.task ?? '']),
      ...r.dimensions.flatMap((d) => [
        d.summary,
        ...d.strengths,
        ...d.problems.flatMap((p) => [p.title, p.problem, p.suggestion]),
      ]),
    ];
    return texts.filter((s) => foreign.test(s)).map((s) => `${a.name}: ${s.slice(0, 80)}`);
  });
  t.same(wrong, []);
});

t.test('the CSI reads as one phrase after its label: never a second colon', async (t) => {
  t.same(
    audits
      .filter(({ r }) => (r.csi.centralSearchIntent.match(/:\s/gu) ?? []).length > 1)
      .map(({ a, r }) => `${a.name}: ${r.csi.centralSearchIntent}`),
    [],
  );
});

t.test('a figure task quotes the words as the sentence writes them', async (t) => {
  const tasks = audits.flatMap(({ a, r }) =>
    r.recommendations.filter((x) => x.evidence?.rule.startsWith('eav') && x.evidence.figure).map((x) => ({ a, x })),
  );
  t.ok(tasks.length >= 2, `${tasks.length} figure tasks`);
  t.same(
    tasks
      .filter(({ x }) => !x.before.includes(x.evidence!.figure!))
      .map(({ a, x }) => `${a.name} ${x.id}: "${x.evidence!.figure}"`),
    [],
  );
});

t.test('a sub-topic is never named by the keyword that already names it ("Rodzaje kluczy: rodzaje")', async (t) => {
  const TYPES = /\b(?:types|rodzaje|arten)\b.*\b(?:types|rodzaje|arten)\b/iu;
  t.same(
    audits.flatMap(({ a, r }) =>
      r.dimensions
        .flatMap((d) => d.problems.map((p) => p.title))
        .filter((s) => TYPES.test(s))
        .map((s) => `${a.name}: ${s}`),
    ),
    [],
  );
});

t.test('a stuffing cut names the rule that fired, with a figure that agrees with it', async (t) => {
  t.same(
    audits.flatMap(({ a, r }) =>
      r.recommendations
        .filter((x) => /over (\d+)%|ponad (\d+)%|über (\d+) %/u.test(x.evidence?.rule ?? ''))
        .filter((x) => {
          const ceiling = Number(/(\d+) ?%/u.exec(x.evidence!.rule)![1]);
          // The figure as the language writes it ("3,5 %").
          return !(Number.parseFloat((x.evidence!.figure ?? '0').replace(',', '.')) > ceiling);
        })
        .map((x) => `${a.name} ${x.id}: ${x.evidence!.rule} (${x.evidence!.figure})`),
    ),
    [],
  );
});

t.test('"past its natural range" comes with a density past the ceiling, never beside a lower figure', async (t) => {
  const RANGE = /natural range|naturalny zakres|natürliche Maß/u;
  t.same(
    audits.flatMap(({ a, r }) =>
      r.recommendations
        .filter((x) => RANGE.test(x.evidence?.rule ?? ''))
        .filter((x) => !(Number.parseFloat((x.evidence!.figure ?? '0').replace(',', '.')) > 3))
        .map((x) => `${a.name} ${x.id}: ${x.evidence!.rule} (${x.evidence!.figure})`),
    ),
    [],
  );
});

t.test(
  'Polish tasks agree with the number of results: "1 … odpowiada", "2 … odpowiadają", "5 … odpowiada"',
  async (t) => {
    const task = recLexiconFor('pl').task;
    const cases: [number, string, string][] = [
      [1, 'odpowiada', 'omawia'],
      [2, 'odpowiadają', 'omawiają'],
      [4, 'odpowiadają', 'omawiają'],
      [5, 'odpowiada', 'omawia'],
      [12, 'odpowiada', 'omawia'],
      [22, 'odpowiadają', 'omawiają'],
    ];
    for (const [n, answers, covers] of cases) {
      t.match(task.paa('Ile to kosztuje?', n), `${n} z czołowych wyników na nie ${answers};`, `paa ${n}`);
      t.match(task.paaInPlace('Ile to kosztuje?', n), `${n} z czołowych wyników na nie ${answers}.`, `paaInPlace ${n}`);
      t.match(task.facet('Koszty', n), `${n} z czołowych wyników ${covers} ten wątek`, `facet ${n}`);
      t.match(task.facetInPlace('Koszty', n), `${n} z czołowych wyników go ${covers}.`, `facetInPlace ${n}`);
    }
  },
);
