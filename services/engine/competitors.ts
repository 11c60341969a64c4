import type { Analyzer } from './document.ts';
import { buildDoc, detectFormat, parseContent } from './document.ts';
import { docShingles, termTable } from './text/terms.ts';
import type { CompetitorInput, Doc } from './types.ts';

/** A SERP's result pages, read as the audited page is: once per competitor object and language. */

/**
 * A competitor page longer than this is not parsed: parsing costs about 1.7 s of CPU per megabyte
 * of HTML, and ten pages of the crawler's 5 MB limit would run an audit the client paid for into the
 * engine's CPU-time bound. Real articles are far below it (their HTML is rarely over 500 kB).
 */
export const MAX_COMPETITOR_CHARS = 1_000_000;

/** Why a competitor cannot be measured at all, or null. */
export const unmeasurable = (c: CompetitorInput): string | null => {
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

export interface ReadCompetitor {
  doc: Doc;
  table: ReturnType<typeof termTable>;
  shingles: Set<string>;
}

/**
 * A competitor read once per language: apply's guard scores one audit's revisions against the
 * same SERP several times, and reading the pages was most of each scoring. A pure function of the
 * competitor and the language, kept only as long as the caller keeps the competitor object.
 */
const readCompetitors = new WeakMap<CompetitorInput, Map<string, ReadCompetitor | null>>();

export const readCompetitor = (c: CompetitorInput, an: Analyzer): ReadCompetitor | null => {
  let byLang = readCompetitors.get(c);
  if (!byLang) readCompetitors.set(c, (byLang = new Map()));
  let read = byLang.get(an.lang);
  if (read === undefined) {
    const doc = competitorDoc(c, an);
    read = doc && { doc, table: termTable(doc, an, true), shingles: docShingles(doc) };
    byLang.set(an.lang, read);
  }
  return read;
};
