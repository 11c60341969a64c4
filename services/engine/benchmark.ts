import type { Analyzer } from './document.ts';
import { buildDoc, detectFormat, parseContent } from './document.ts';
import { leadsOf } from './dimensions/queryFanout.ts';
import type { BenchStats, CompStats, TermTarget } from './benchStats.ts';
import { gamingOf } from './dimensions/gaming.ts';
import { hasValue, termSentences } from './dimensions/helpers.ts';
import type { ScoringContext } from './context.ts';
import { bestSurface, docShingles, termTable } from './text/terms.ts';
import type { Lexicon } from './text/lexicon.ts';
import { buildReferentModel, judgeReferent, type ReferentModel } from './referent.ts';
import type { CompetitorInput, Doc, KeywordInfo, SerpBenchmarkInput } from './types.ts';
import { hostOf } from '../../core/host.ts';
import { MAX_CONTENT_CHARS } from './prepare.ts';

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
const percentile = (xs: number[], p: number): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))] ?? 0;
};

/** Two texts are one page when most of their 3-stem shingles are shared (Jaccard ≥ 0.6). */
const nearDuplicate = (a: Set<string>, b: Set<string>): boolean => {
  if (!a.size || !b.size) return false;
  let both = 0;
  for (const x of a) if (b.has(x)) both++;
  return both / (a.size + b.size - both) >= 0.6;
};

/**
 * A competitor page longer than this is not parsed: parsing costs about 1.7 s of CPU per megabyte
 * of HTML, and ten pages of the crawler's 5 MB limit would run an audit the client paid for into the
 * engine's CPU-time bound. Real articles are far below it (their HTML is rarely over 500 kB).
 */
export const MAX_COMPETITOR_CHARS = 1_000_000;

/** Why a competitor cannot be measured at all, or null. */
const unmeasurable = (c: CompetitorInput): string | null => {
  const content = c.html ?? c.text ?? '';
  if (!content.trim()) return 'no content';
  return content.length > MAX_COMPETITOR_CHARS ? 'too large to analyse' : null;
};

export const competitorDoc = (c: CompetitorInput, an: Analyzer): Doc | null => {
  const content = c.html ?? c.text ?? '';
  if (!content.trim()) return null;
  const format = c.html ? 'html' : detectFormat(content);
  const parsed = parseContent(content, format, c.url);
  return buildDoc(parsed, content, an, c.url, c.title ?? null);
};

/** Why a result was left out, in words a client can check against the page. */
const referentReason = (model: ReferentModel | null, doc: Doc): string => {
  const v = judgeReferent(model, doc);
  const own = v.status === 'unknown' ? [] : v.words;
  const theirs = model?.consensusWords ?? [];
  return own.length && theirs.length
    ? `different referent: it is about ${own.join(', ')}; most results are about ${theirs.join(', ')}`
    : 'different referent: its vocabulary shares little with the other results';
};

export const buildBench = (
  input: SerpBenchmarkInput,
  article: Doc,
  kw: KeywordInfo,
  an: Analyzer,
  lex: Lexicon,
): BenchStats => {
  const ctxForLeads = { an, kw, lex } as unknown as ScoringContext;
  const candidates: { c: CompetitorInput; doc: Doc; table: ReturnType<typeof termTable> }[] = [];
  const excluded: BenchStats['excluded'] = [];
  for (const c of input.competitors) {
    const refused = unmeasurable(c);
    const doc = refused ? null : competitorDoc(c, an);
    if (!doc || doc.words < 50 || doc.text.length > MAX_CONTENT_CHARS) {
      const reason = refused ?? (doc && doc.words >= 50 ? 'too large to analyse' : 'no content');
      excluded.push({ url: c.url, domain: domainOf(c.url), reason });
      continue;
    }
    candidates.push({ c, doc, table: termTable(doc, an, true) });
  }
  // Pages about another referent: outliers of the SERP's shared vocabulary (referent.ts). Judged
  // among the competitors alone, so an article about the other meaning cannot pull them its way.
  const ce = kw.entityStems.length ? kw.entityStems : kw.stems;
  // The audited page may be one of the results (its own URL, or the same text elsewhere): it is a
  // result, so it is scored and counts for the SERP's meaning, but its words are not "what the SERP
  // uses", or a poor page in a small SERP would set its own targets.
  const articleShingles = docShingles(article);
  const isSelf = candidates.map(
    (x) => (article.url !== null && x.c.url === article.url) || nearDuplicate(docShingles(x.doc), articleShingles),
  );
  const referent = buildReferentModel(
    candidates.map((x) => x.doc),
    an,
    kw.stems,
    {
      titles: candidates.map((x) => x.c.title ?? null),
      // What the search engine shows for the query's dominant meaning, and how much of each page is
      // more than the keyword repeated: a mostly stuffed page does not vote on the meaning.
      query: [...input.paa, ...input.related],
      informative: candidates.map((x) => gamingOf(x.doc, kw, an).informativeWords / Math.max(1, x.doc.words)),
    },
  );
  const outliers = new Set(referent?.outliers ?? []);
  const included: typeof candidates = [];
  candidates.forEach((x, i) => {
    if (outliers.has(i))
      excluded.push({
        url: x.c.url,
        domain: domainOf(x.c.url),
        reason: referentReason(referent, x.doc),
      });
    else included.push(x);
  });
  // The audited page's terms as tfidf reads them (its writer's specific prose).
  const articleTable = termTable(
    { ...article, sentences: termSentences(article, gamingOf(article, kw, an)) },
    an,
    false,
  );
  const basis = included.filter((x) => !isSelf[candidates.indexOf(x)]);
  // The audited page's copy in the results weighs no term either: idf reads the other results.
  const others = candidates.filter((_, i) => !isSelf[i]);
  const N = others.length;
  const df = new Map<string, number>();
  for (const x of others) for (const k of x.table.counts.keys()) df.set(k, (df.get(k) ?? 0) + 1);
  const idf = (k: string) => Math.log((N + 2) / ((df.get(k) ?? 0) + (articleTable.counts.has(k) ? 1 : 0) + 1)) + 1;
  const M = basis.length;
  // Targets need two pages, or the one left when the audited page itself took the other place:
  // falling back to the keyword alone would reward a page for repeating it.
  const enough = M >= 2 || (M >= 1 && included.length > M);
  const comps: CompStats[] = included.map((x) => ({
    url: x.c.url,
    domain: domainOf(x.c.url),
    doc: x.doc,
    terms: x.table.counts,
    leads: leadsOf(x.doc, ctxForLeads),
    valueDensity: x.doc.words
      ? (x.doc.sentences.filter((s) => hasValue(s.text, '\u0000')).length / x.doc.words) * 1000
      : 0,
    shingles: docShingles(x.doc),
  }));

  // Term targets: used by ≥40% of the included competitors, ranked by df/N × mean tf-idf.
  const targets: TermTarget[] = [];
  if (enough) {
    const incDf = new Map<string, number>();
    for (const x of basis) for (const k of x.table.counts.keys()) incDf.set(k, (incDf.get(k) ?? 0) + 1);
    const rows: (TermTarget & { imp: number })[] = [];
    for (const [k, d] of incDf) {
      if (d / M < 0.4) continue;
      const rates = basis
        .filter((x) => x.table.counts.has(k))
        .map((x) => ((x.table.counts.get(k) ?? 0) / x.doc.words) * 1000);
      const meanTfIdf = (rates.reduce((a, r) => a + r, 0) / M) * idf(k);
      const surfaces = new Map<string, number>();
      for (const x of basis)
        for (const [s, n] of x.table.surfaces.get(k) ?? []) surfaces.set(s, (surfaces.get(s) ?? 0) + n);
      rows.push({
        key: k,
        surface: bestSurface(surfaces, k),
        weight: 0,
        p25: percentile(rates, 0.25),
        p90: percentile(rates, 0.9),
        imp: (d / M) * meanTfIdf,
      });
    }
    rows.sort((a, b) => b.imp - a.imp || (a.key < b.key ? -1 : 1));
    const top = rows.slice(0, 50);
    const maxImp = top[0]?.imp ?? 1;
    for (const r of top)
      targets.push({
        key: r.key,
        surface: r.surface,
        weight: Math.round((r.imp / maxImp) * 1000) / 1000,
        p25: r.p25,
        p90: r.p90,
      });
  }

  // Expected attributes: content words within 5 tokens of the entity in ≥50% of competitors.
  const attrDf = new Map<string, number>();
  const attrSurf = new Map<string, Map<string, number>>();
  for (const x of basis) {
    const seen = new Set<string>();
    for (const s of x.doc.sentences) {
      const idx = s.stems.map((st, i) => (ce.includes(st) ? i : -1)).filter((i) => i >= 0);
      if (!idx.length) continue;
      for (const i of idx)
        for (let j = Math.max(0, i - 5); j <= Math.min(s.words.length - 1, i + 5); j++) {
          const w = s.words[j] ?? '';
          const st = s.stems[j] ?? '';
          if (w.length < 4 || an.stop.has(w) || ce.includes(st) || /\p{N}/u.test(w)) continue;
          seen.add(st);
          let m = attrSurf.get(st);
          if (!m) attrSurf.set(st, (m = new Map()));
          m.set(w, (m.get(w) ?? 0) + 1);
        }
    }
    for (const st of seen) attrDf.set(st, (attrDf.get(st) ?? 0) + 1);
  }
  const attributes = enough
    ? [...attrDf.entries()]
        .filter(([, d]) => d / M >= 0.5)
        .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
        .slice(0, 15)
        .map(([stem]) => ({ stem, surface: bestSurface(attrSurf.get(stem), stem) }))
    : [];

  const basisComps = comps.filter((_, i) => basis.includes(included[i]!));
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
  };
};
