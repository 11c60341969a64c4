import type { Analyzer } from './document.ts';
import { entityStemsOf } from './keyword.ts';
import { leadsOf } from './dimensions/queryFanout.ts';
import type { BenchStats, CompStats, TermTarget } from './benchStats.ts';
import { gamingOf } from './dimensions/gaming.ts';
import { hasValue, termSentences } from './dimensions/helpers.ts';
import type { ScoringContext } from './context.ts';
import type { Lexicon } from './text/lexicon.ts';
import { docShingles, termTable } from './text/terms.ts';
import { buildReferentModel, judgeReferent, type ReferentModel } from './referent.ts';
import { VOTER_SHARE } from './referentVote.ts';
import { t } from './labels.ts';
import { expectedAttributes, termTargets } from './benchTargets.ts';
import type { CompetitorInput, Doc, KeywordInfo, SerpBenchmarkInput } from './types.ts';
import { hostOf } from '../../core/host.ts';
import { MAX_CONTENT_CHARS } from './prepare.ts';
import { serpReportsNews } from './newsSignals.ts';
import { readCompetitor, unmeasurable, type ReadCompetitor } from './competitors.ts';

/**
 * The SERP benchmark: competitors are parsed like the audited page, pages about a different
 * referent (outliers of the SERP's shared vocabulary, referent.ts) are excluded, and the rest give
 * the targets of tfidf, eav and effort.
 */

/** The competitor's domain as the benchmark shows it ('' when its URL does not parse). */
export const domainOf = (url: string): string => hostOf(url) ?? '';

const median = (xs: number[]): number => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] ?? 0) : ((s[m - 1] ?? 0) + (s[m] ?? 0)) / 2;
};

/** Two texts are one page when most of their 3-stem shingles are shared (Jaccard ≥ 0.6). */
const nearDuplicate = (a: Set<string>, b: Set<string>): boolean => {
  if (!a.size || !b.size) return false;
  let both = 0;
  for (const x of a) if (b.has(x)) both++;
  return both / (a.size + b.size - both) >= 0.6;
};

/** Why a result was left out, in words a client can check against the page, in the report's language. */
const referentReason = (model: ReferentModel | null, doc: Doc, lang: string): string => {
  const v = judgeReferent(model, doc);
  const own = v.status === 'unknown' ? [] : v.words;
  const theirs = model?.consensusWords ?? [];
  return own.length && theirs.length
    ? t(
        lang,
        `different referent: it is about ${own.join(', ')}; most results are about ${theirs.join(', ')}`,
        `inne znaczenie frazy: strona mówi o tym: ${own.join(', ')}, a większość wyników o tym: ${theirs.join(', ')}`,
        `andere Bedeutung: Die Seite handelt von ${own.join(', ')}; die meisten Ergebnisse handeln von ${theirs.join(', ')}`,
      )
    : t(
        lang,
        'different referent: its vocabulary shares little with the other results',
        'inne znaczenie frazy: jej słownictwo ma niewiele wspólnego z pozostałymi wynikami',
        'andere Bedeutung: Ihr Wortschatz hat wenig mit den übrigen Ergebnissen gemeinsam',
      );
};

export const buildBench = (
  input: SerpBenchmarkInput,
  article: Doc,
  kw: KeywordInfo,
  an: Analyzer,
  lex: Lexicon,
): BenchStats => {
  const ctxForLeads = { an, kw, lex } as unknown as ScoringContext;
  const candidates: ({ c: CompetitorInput } & ReadCompetitor)[] = [];
  const excluded: BenchStats['excluded'] = [];
  for (const c of input.competitors) {
    const refused = unmeasurable(c);
    const read = refused ? null : readCompetitor(c, an);
    const doc = read?.doc ?? null;
    if (!read || !doc || doc.words < 50 || doc.text.length > MAX_CONTENT_CHARS) {
      const tooLarge = refused === 'too large to analyse' || (doc !== null && doc.words >= 50);
      const reason = tooLarge
        ? t(an.lang, 'too large to analyse', 'za duża, by ją przeanalizować', 'zu groß für die Analyse')
        : t(an.lang, 'no content', 'brak treści', 'kein Inhalt');
      excluded.push({ url: c.url, domain: domainOf(c.url), reason });
      continue;
    }
    candidates.push({ c, ...read });
  }
  // Pages about another referent: outliers of the SERP's shared vocabulary (referent.ts). Judged
  // among the competitors alone, so an article about the other meaning cannot pull them its way.
  const ce = entityStemsOf(kw);
  // The audited page may be one of the results (its own URL, or the same text elsewhere): it is a
  // result, so it is scored and counts for the SERP's meaning, but its words are not "what the SERP
  // uses", or a poor page in a small SERP would set its own targets.
  const articleShingles = docShingles(article);
  const isSelf = candidates.map(
    (x) => (article.url !== null && x.c.url === article.url) || nearDuplicate(x.shingles, articleShingles),
  );
  const informative = candidates.map((x) => gamingOf(x.doc, kw, an).informativeWords / Math.max(1, x.doc.words));
  const referent = buildReferentModel(
    candidates.map((x) => x.doc),
    an,
    kw.stems,
    {
      titles: candidates.map((x) => x.c.title ?? null),
      // What the search engine shows for the query's dominant meaning, and how much of each page is
      // more than the keyword repeated: a mostly stuffed page does not vote on the meaning.
      query: [...input.paa, ...input.related],
      questions: input.paa,
      informative,
    },
    kw.intent === 'local',
  );
  const outliers = new Set(referent?.outliers ?? []);
  const included: typeof candidates = [];
  candidates.forEach((x, i) => {
    if (outliers.has(i))
      excluded.push({
        url: x.c.url,
        domain: domainOf(x.c.url),
        reason: referentReason(referent, x.doc, an.lang),
      });
    else included.push(x);
  });
  // The audited page's terms as tfidf reads them (its writer's specific prose).
  const articleTable = termTable(
    { ...article, sentences: termSentences(article, gamingOf(article, kw, an)) },
    an,
    false,
  );
  // A result that is mostly keyword-stuffed sentences and filler says little beyond the keyword:
  // what it "uses" is generic prose, so it sets no target (it still counts as a result).
  const results = included.filter((x) => !isSelf[candidates.indexOf(x)]);
  const basis = results.filter((x) => (informative[candidates.indexOf(x)] ?? 1) >= VOTER_SHARE);
  // The audited page's copy in the results weighs no term either: idf reads the other results.
  const others = candidates.filter((_, i) => !isSelf[i]);
  const N = others.length;
  const df = new Map<string, number>();
  for (const x of others) for (const k of x.table.counts.keys()) df.set(k, (df.get(k) ?? 0) + 1);
  const idf = (k: string) => Math.log((N + 2) / ((df.get(k) ?? 0) + (articleTable.counts.has(k) ? 1 : 0) + 1)) + 1;
  const comps: CompStats[] = included.map((x) => ({
    url: x.c.url,
    domain: domainOf(x.c.url),
    doc: x.doc,
    terms: x.table.counts,
    leads: leadsOf(x.doc, ctxForLeads),
    valueDensity: x.doc.words
      ? (x.doc.sentences.filter((s) => hasValue(s.text, '\u0000')).length / x.doc.words) * 1000
      : 0,
    shingles: x.shingles,
  }));

  // Targets and attributes: what most of the informative competitors agree on (benchTargets.ts).
  // Attributes always need two pages: words near the entity on one page are that page's wording.
  const selfListed = included.some((x) => isSelf[candidates.indexOf(x)]);
  const targets: TermTarget[] = termTargets(basis, idf, an, selfListed);
  // The keyword's own words (its verb too: "lösen" in "mutter lösen") are not attributes of its entity.
  const attributes = expectedAttributes(basis, [...new Set([...ce, ...kw.stems])], an);

  const basisComps = comps.filter((_, i) => results.includes(included[i]!));
  const shingles = new Map<string, number>();
  for (const c of basisComps) for (const sh of c.shingles) shingles.set(sh, (shingles.get(sh) ?? 0) + 1);
  return {
    comps,
    excluded,
    targets,
    attributes,
    valueDensityMedian: median(basisComps.map((c) => c.valueDensity)),
    lengthMedian: median(basisComps.map((c) => c.doc.words)),
    shingles,
    paa: input.paa,
    related: input.related,
    referent,
    reportsNews: serpReportsNews(results.map((x) => x.doc)),
  };
};
