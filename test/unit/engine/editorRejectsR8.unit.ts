import t from 'tap';
import { runAudit } from '../../../services/engine/audit.ts';
import { createAnalyzer } from '../../../services/engine/document.ts';
import { firstHandSentences } from '../../../services/engine/firstHand.ts';
import { describeKeyword } from '../../../services/engine/keyword.ts';
import { narratesEvent, reportsEvent } from '../../../services/engine/newsSignals.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';
import { looseCoverage, passageOn, passageStems, priceWordsIn } from '../../../services/engine/questionMatch.ts';
import { lexiconFor } from '../../../services/engine/text/lexicon.ts';
import { recLexiconFor } from '../../../services/engine/text/recLexicon.ts';
import { tokenize } from '../../../services/engine/text/segment.ts';
import { recArticles } from '../../eval/recArticles.ts';

/**
 * Blind review r8's reject kinds (issue 23), each as a rule checked over every article of the
 * engine fixtures, the tuning half, corpus-a and corpus-c (with and without their SERP). The
 * held-out half and corpus-b are not read here.
 */

const audited = recArticles().map((a) => {
  const run = runAudit(a.input);
  const lang = run.result.input.language ?? a.language;
  const an = createAnalyzer(lang);
  const kw = describeKeyword(run.result.input.keyword ?? a.keyword, an);
  return { a, run, recs: run.result.recommendations, ctx: { an, kw, lex: lexiconFor(lang) }, lang };
});

/** A dodge or a vague statement, as a reader would spot it: the review lexicon's wording and the hedges. */
const dodging = (sentence: string, lang: string): boolean => {
  const words = ` ${tokenize(sentence).join(' ')} `;
  return [...recLexiconFor(lang).dodges, ...lexiconFor(lang).hedges].some((p) =>
    words.includes(` ${tokenize(p).join(' ')} `),
  );
};

t.test(
  'the corpus is there (engine, tuning, corpus-a, corpus-c, corpus-e, corpus-f), without the measure-only sets',
  async (t) => {
    for (const prefix of ['engine/', 'tuning/', 'corpus-a/', 'corpus-c/', 'corpus-e/', 'corpus-f/'])
      t.ok(
        audited.some((x) => x.a.name.startsWith(prefix)),
        prefix,
      );
    t.notOk(audited.some((x) => /heldout|corpus-b/u.test(x.a.name)));
  },
);

t.test('slot in the wrong place: no new section for a question a passage already dodges', async (t) => {
  const wrong = audited.flatMap(({ a, run, recs, ctx, lang }) =>
    recs
      .filter((r) => r.insertAt && r.evidence?.questions.length)
      .flatMap((r) => {
        const q = r.evidence!.questions[0]!;
        const need = passageStems(q, ctx);
        const at = run.scored.doc.sentences.find(
          (s) => s.kind === 'prose' && looseCoverage(s.stems, need) >= 0.5 && dodging(s.text, lang),
        );
        // Two of three or more words, as the rule reads "touches"; one word of two may be a homonym.
        const touches = at && (need.length < 3 || need.filter((k) => looseCoverage(at.stems, [k]) > 0).length >= 2);
        return touches ? [`${a.name} ${r.id}: "${q}" dodged in "${at.text.slice(0, 80)}"`] : [];
      }),
  );
  t.same(wrong, []);
});

/** A question of cost and a sentence on the price, each in its own word („kosztuje”, „Cena”). */
const onPrice = (sentence: string, q: string, lang: string) =>
  priceWordsIn(q, lang).length > 0 && priceWordsIn(sentence, lang).length > 0;

t.test('an answer asked for in place stands in a sentence that touches the question and dodges it', async (t) => {
  const inPlace = audited.flatMap(({ a, recs, ctx, lang }) =>
    recs
      .filter((r) => r.evidence?.questions.length && r.before)
      .map((r) => ({ a, r, ctx, lang, q: r.evidence!.questions[0]! })),
  );
  t.ok(inPlace.length > 0, `${inPlace.length} answers asked for in place`);
  t.same(
    inPlace
      .filter(
        ({ r, ctx, lang, q }) =>
          r.before !== r.after ||
          !r.authorDataOnly ||
          !dodging(r.before, lang) ||
          (looseCoverage(ctx.an.contentStems(r.before), passageStems(q, ctx)) < 0.5 && !onPrice(r.before, q, lang)),
      )
      .map(({ a, r }) => `${a.name} ${r.id}`),
    [],
  );
});

t.test('wrong subject: the news pages of the tuning sets read as news; no other page does', async (t) => {
  // The profile's own reading (title and keyword cues) is older and wider; the signals must not add to it.
  const read = audited.filter(({ run }) => run.scored.profile === 'news' || reportsEvent(run.scored.doc));
  const signalled = audited.filter(({ run }) => reportsEvent(run.scored.doc));
  // A news topic's other-referent article may be a report of another event (its own news).
  const newsTopic = (a: { name: string; contentType?: string }) =>
    /-news-|zmiana-czasu/u.test(a.name) || a.contentType === 'news';
  t.same(
    audited
      .filter(({ a }) => newsTopic(a) && a.quality === 'strong')
      .filter((x) => !read.includes(x))
      .map(({ a }) => a.name),
    [],
    'every dated news report',
  );
  t.same(
    signalled.filter(({ a }) => !newsTopic(a)).map(({ a }) => a.name),
    [],
    'no review, how-to or explainer',
  );
});

t.test('wrong subject: no question or sub-topic section on a page read as news', async (t) => {
  t.same(
    audited
      .filter(({ run }) => run.scored.profile === 'news' || reportsEvent(run.scored.doc))
      .flatMap(({ a, recs }) =>
        recs.filter((r) => r.dimension === 'queryFanout' && r.authorDataOnly).map((r) => `${a.name} ${r.id}`),
      ),
    [],
  );
});

t.test('noise: a byline task only on first-hand use, or on news that narrates an event', async (t) => {
  const bylines = audited.flatMap((x) => x.recs.filter((r) => r.evidence?.rule.startsWith('eeat')).map(() => x));
  t.ok(bylines.length > 0, 'bylines are still asked where they vouch for something');
  t.same(
    bylines
      .filter(({ run }) =>
        run.scored.profile === 'news' ? !narratesEvent(run.scored.doc) : firstHandSentences(run.scored.doc) < 2,
      )
      .map(({ a }) => a.name),
    [],
  );
});

t.test('misses: a poor page whose title repeats the keyword is never left without a recommendation', async (t) => {
  const count = (s: string, kw: string) => s.toLowerCase().split(kw.toLowerCase()).length - 1;
  const stuffed = audited.filter(
    ({ a }) => a.quality === 'weak' && count(a.input.content.split('\n')[0] ?? '', a.keyword) >= 2,
  );
  t.ok(stuffed.length >= 5, `${stuffed.length} stuffed poor pages`);
  const bare = stuffed.filter(({ recs }) => recs.length === 0);
  t.same(
    bare.filter(({ a }) => a.input.benchmark).map(({ a }) => a.name),
    [],
    'with a SERP',
  );
  // Without a SERP too: a title trim that would leave the keyword with an intent word ("Best
  // Cordless Trimmer") is the writer's rewrite (a task), not a cut that gains too little to show.
  t.same(
    bare.filter(({ a }) => !a.input.benchmark).map(({ a }) => a.name),
    [],
    'without a SERP',
  );
});

t.test('misses: an opening that warms up gets the answer asked for, at the warm-up, on poor pages only', async (t) => {
  const asked = audited.flatMap((x) =>
    x.recs.filter((r) => r.dimension === 'bluf' && r.authorDataOnly).map((r) => ({ x, r })),
  );
  t.ok(asked.filter(({ x }) => x.a.quality === 'weak').length >= 10, `${asked.length} answers asked for`);
  t.same(
    asked.filter(({ x }) => x.a.quality !== 'weak').map(({ x }) => x.a.name),
    [],
    'never on a strong or other-referent page',
  );
  // The task stands in place (BEFORE = AFTER, a sentence of the opening) and quotes the warm-up it
  // names; an opening that never names the subject has no phrase to quote (bluf.ts): its task stands
  // at the opening's first statement.
  t.same(
    asked
      .filter(({ x, r }) => {
        const intro = x.run.scored.doc.sentences.filter((s) => s.section === 0);
        const opening = intro.some((s) => s.text === r.before);
        if (r.before !== r.after || !opening) return true;
        if (r.evidence?.figure === null)
          return (
            intro.find((s) => s.kind === 'prose' && /[.!?]\s*$/u.test(s.text) && s.words.length >= 4)?.text !== r.before
          );
        const warmUp = r.evidence?.figure?.replace(/^["„]|["”“]$/gu, '').toLowerCase() ?? '';
        return !warmUp || !r.before.toLowerCase().includes(warmUp);
      })
      .map(({ x }) => x.a.name),
    [],
  );
});

t.test('wrong subject: a sub-topic template is a problem only where two results or more show it', async (t) => {
  const facets = audited.flatMap(({ a, run }) =>
    run.scored.outcomes.flatMap((o) => o.findings.filter((f) => f.kind === 'facet').map((f) => ({ a, f }))),
  );
  t.ok(facets.length > 0, `${facets.length} sub-topic problems`);
  t.same(
    facets.filter(({ f }) => f.competitors.length < 2).map(({ a, f }) => `${a.name}: ${f.title}`),
    [],
  );
});

t.test(
  'an answer asked for in place: the sentence holds a word of the question the page does not say everywhere',
  async (t) => {
    const body = [
      'Wymiana baterii w kuchni to prosta praca, a wymiana baterii w łazience wygląda podobnie.',
      'Do wymiany baterii potrzebny jest klucz nastawny i uszczelki, a wymiana baterii trwa około 30 minut.',
      'Uważa się, że wymiana baterii jest skomplikowana, ale wymiana baterii nie musi być trudna.',
      'Przed wymianą baterii zakręć zawory pod zlewem i odkręć wężyki starej baterii.',
      'Nową baterię przykręć do blatu nakrętką, a wężyki dokręć kluczem bez użycia siły.',
      'Uszczelki wymień przy każdej wymianie, bo stare często przeciekają po kilku dniach.',
    ];
    const at = (extra: string[]) => {
      const p = prepareDocument({
        content: `# Jak wymienić baterię\n\n${[...body, ...extra].join('\n\n')}`,
        url: null,
        keyword: 'jak wymienić baterię',
        language: 'pl',
        benchmark: null,
      });
      const rl = recLexiconFor('pl');
      return passageOn(
        p.doc,
        'Ile kosztuje wymiana baterii przez hydraulika?',
        { an: p.an, kw: p.kw, lex: p.lex },
        (s) => dodging(s, 'pl') || rl.dodges.some((d) => s.toLowerCase().includes(d)),
      )?.text;
    };
    t.equal(at([]), undefined, 'not the sentence that only repeats the keyword');
    t.equal(
      at(['Koszt pracy hydraulika przy wymianie baterii może być różny, zależnie od miasta.']),
      'Koszt pracy hydraulika przy wymianie baterii może być różny, zależnie od miasta.',
      'the sentence that speaks to the cost',
    );
    t.equal(
      at(['## Podsumowanie', 'Koszt pracy hydraulika przy wymianie baterii może być różny, zależnie od miasta.']),
      undefined,
      'not a sentence of the conclusion: the answer belongs where the topic is treated (r16, r17)',
    );
    t.equal(
      at(['Podsumowując: koszt pracy hydraulika przy wymianie baterii może być różny, zależnie od miasta.']),
      undefined,
      'not a sentence that sums up',
    );
  },
);
