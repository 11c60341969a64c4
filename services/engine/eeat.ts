import { isInPageHref } from '../../core/host.ts';
import type { ScoringContext } from './context.ts';
import { evidenceOf } from './evidence.ts';
import type { Doc, Eeat } from './types.ts';
import { hasValue, round1, valueBaseWords } from './dimensions/helpers.ts';

/**
 * E-E-A-T checklists, each 0-10 (points earned ÷ points applicable). Experience: first-person
 * experience verbs, durations, own images, the author's years of practice in a byline or bio. Expertise: byline, credentials, Person data, depth.
 * Authority: citations to .gov/.edu/doi/pubmed-style sources, source attributions, external and
 * internal links, sameAs. Trust: HTTPS, dates, about/contact/privacy links, disclosures, and a
 * disclaimer on YMYL topics. Checks that need a URL or page code are skipped for supplied text.
 */

const AUTHORITATIVE =
  /(\.gov(\.[a-z]{2})?|\.edu|\.ac\.[a-z]{2}|doi\.org|pubmed|ncbi\.nlm|europa\.eu|who\.int|nih\.gov|gus\.gov\.pl|nbp\.pl|destatis\.de|\.gv\.at)(\/|$)/i;
const STOCK = /(stock|unsplash|shutterstock|pexels|istock|getty|depositphotos|pixabay)/i;
const CREDENTIALS =
  /\b(dr|phd|ph\.d|md|prof|lek\.|mgr|inż|msc|cfa|cpa|certified|certyfikowan|dipl|dietetyk|trener|barista|engineer|inżynier|editor|redaktor)\b/i;
const BYLINE = /(^|\n)\s*(by|author|autor|autorka|von)\s*:?\s+\p{Lu}\p{L}+/iu;
// A byline or bio that states practice: "with 12 years of practice", "since 2009", "od 15 lat",
// "15 lat doświadczenia", "seit 20 Jahren", "20 Jahre Erfahrung".
const PRACTICE =
  /(?:\b\d{1,2}\+?\s+(?:years?|yrs)['’]?(?:\s+of)?\s+(?:practice|experience|in the trade|on the job|as an?\b)|\bwith\s+\d{1,2}\+?\s+years|\bsince\s+(?:19|20)\d\d|\bod\s+\d{1,2}\s+lat|\b\d{1,2}\s+lat(?:a)?\s+(?:doświadczenia|praktyki|w zawodzie|pracy)|\b\d{1,2}-letni\p{L}*\s+(?:doświadczeni|praktyk|staż)|\bseit\s+(?:\d{1,2}\s+Jahren|(?:19|20)\d\d)|\b\d{1,2}\s+Jahren?\s+\p{L}*(?:erfahrung|praxis))/iu;

const DATE_TEXT =
  /\b(updated|published|aktualizacja|zaktualizowano|opublikowano|stand|aktualisiert)\b[^\n]{0,20}\d|\b\d{1,2}[./-]\d{1,2}[./-](19|20)\d{2}\b|\b(19|20)\d{2}-\d{2}-\d{2}\b/i;

// "Updated 6 October 2025", "Stand: 03.2025" on a line of its own, wherever the page puts it.
const DATED_LINE =
  /(^|\n)[^\n]{0,80}\b(updated|published|last reviewed|aktualizacja|zaktualizowano|opublikowano|stand|aktualisiert|veröffentlicht)\b[^\n]{0,20}\d/i;
// A line that opens an author box or a byline.
const AUTHOR_LINE =
  /^\s*(?:by|(?:written|reviewed|tested|fact-checked|medically reviewed) by|author|about the author|autor|autorka|tekst|o autorze|von|über (?:den|die) autor\p{L}*)\b/iu;

/** The text zones that may hold a byline or an author box (see scoreEeat). */
const EDGE_PARAGRAPHS = 4;

const authorZones = (doc: Doc): string[] => {
  const zones = [doc.text.slice(0, 600), doc.text.slice(-600)];
  const author = doc.signals.author.trim();
  const paras = doc.blocks.filter((b) => b.kind === 'paragraph' || b.kind === 'quote').map((b) => b.text.trim());
  // The opening and closing paragraphs by position, not by characters: one more paragraph at the
  // top does not push the byline out.
  zones.push(...paras.slice(0, EDGE_PARAGRAPHS), ...paras.slice(-EDGE_PARAGRAPHS));
  for (const text of paras) {
    if (text.split(/\s+/).length > 80) continue;
    if (AUTHOR_LINE.test(text) || (author && text.includes(author))) zones.push(text);
  }
  return zones;
};

/** The page says who wrote it: an author in the page data, or a byline where bylines stand. */
/**
 * Uses of a list's phrases as words: whole words for forms ("sam", "used": "samopoczucie" is no
 * "sam"), or at a word's start for stems ("lek" in "leki", not in "daleko"). One pattern per list,
 * compiled once.
 */
const wordPatterns = new WeakMap<string[], RegExp>();
const stemPatterns = new WeakMap<string[], RegExp>();
const countMatches = (lower: string, list: string[], stems: boolean): number => {
  const cache = stems ? stemPatterns : wordPatterns;
  let re = cache.get(list);
  if (!re) {
    const alt = list.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');
    cache.set(list, (re = new RegExp(`(?<![\\p{L}\\p{N}])(?:${alt})${stems ? '' : '(?![\\p{L}\\p{N}])'}`, 'gu')));
  }
  return lower.match(re)?.length ?? 0;
};
const countWords = (lower: string, list: string[]): number => countMatches(lower, list, false);
const countStems = (lower: string, list: string[]): number => countMatches(lower, list, true);

export const hasByline = (doc: Doc): boolean =>
  Boolean(doc.signals.author) || authorZones(doc).some((z) => BYLINE.test(z));

/** Points earned ÷ points applicable, 0-10, unrounded (CQS reads it so rounding hides no gain). */
const exactRatio = (parts: [number, number][]): number => {
  const total = parts.reduce((a, [w]) => a + w, 0);
  return total ? (10 * parts.reduce((a, [w, v]) => a + w * Math.min(1, v), 0)) / total : 0;
};

/**
 * Checkable support per length with diminishing returns: half the credit at one item (a source
 * attribution counts half) per 150 words, and every further item still adds a little, so adding a
 * quotation, a sourced figure or a citation to a well-sourced page is never worth nothing.
 */
export const supportCredit = (support: number, words: number): number =>
  1 - 0.5 ** (support / Math.max(2, words / 150));

export interface EeatDetail {
  eeat: Eeat;
  /** The average of the four unrounded checklists. */
  exact: number;
}

export const scoreEeat = (doc: Doc, ctx: ScoringContext): Eeat => scoreEeatDetail(doc, ctx).eeat;

export const scoreEeatDetail = (doc: Doc, ctx: ScoringContext): EeatDetail => {
  const { lex } = ctx;
  const lower = doc.text.toLowerCase();
  const sig = doc.signals;
  const html = doc.format === 'html';
  const count = (list: string[]) => list.reduce((a, p) => a + (lower.split(p).length - 1), 0);

  const expCount = countWords(lower, lex.experience);
  const durations = (lower.match(new RegExp(lex.duration.source, 'g')) ?? []).length;
  const ownImages = sig.images.filter((i) => !STOCK.test(i.src)).length;
  // Where the page says who wrote it: the first and last 600 characters, and wherever else it puts
  // a byline or an author box (a line opening "By …"/"Autor:"/"About the author", or naming the
  // author of the page data), so a line added above the byline does not hide it.
  const zones = authorZones(doc);
  const inZones = (re: RegExp) => zones.some((z) => re.test(z));
  const practice = inZones(PRACTICE);
  const experience = exactRatio([
    [5, expCount / 3],
    [2.5, practice ? 1 : durations],
    [2.5, ownImages],
    [6, practice ? 1 : 0],
  ]);

  const byline = hasByline(doc);
  const credentials = practice || CREDENTIALS.test(sig.author) || inZones(CREDENTIALS);
  const person =
    sig.jsonLdTypes.includes('Person') ||
    sig.jsonLd.some(
      (x) => typeof x === 'object' && x !== null && typeof (x as { author?: unknown }).author === 'object',
    );
  const valuesPerK = doc.words
    ? (doc.sentences.filter((s) => hasValue(s.text, lex.slot)).length / valueBaseWords(doc, lex.slot)) * 1000
    : 0;
  const expertise = exactRatio([
    [4, byline ? 1 : 0],
    [3, credentials ? 1 : 0],
    ...(html ? [[1.5, person ? 1 : 0] as [number, number]] : []),
    [1.5, valuesPerK / 8],
  ]);

  const external = sig.links.filter((l) => !l.internal && l.rel !== 'site');
  const authoritative = external.filter((l) =>
    AUTHORITATIVE.test(l.href.replace(/^https?:\/\/(www\.)?/, '').split(/[?#]/)[0] ?? ''),
  ).length;
  // A jump within the page (a table of contents) links to no other page of the site.
  const internal = sig.links.filter((l) => l.internal && l.rel !== 'site' && !isInPageHref(l.href)).length;
  const sources = count(lex.sources);
  // Checkable support in the text: named quotations, sourced figures, citations (evidence.ts),
  // besides the attribution phrases; more of it keeps counting, with diminishing returns.
  const evidence = evidenceOf(doc).count;
  const support = sources / 2 + evidence;
  const authority = exactRatio([
    [4, authoritative / 2],
    [1.5, external.length / 2],
    [2, sources / 2],
    [8, supportCredit(support, doc.words)],
    [1.5, internal / 2],
    ...(html ? [[1, sig.sameAs ? 1 : 0] as [number, number]] : []),
  ]);

  const dated =
    Boolean(sig.datePublished || sig.dateModified) ||
    DATED_LINE.test(doc.text) ||
    DATE_TEXT.test(doc.text.slice(0, 800)) ||
    DATE_TEXT.test(doc.text.slice(-800)) ||
    inZones(DATE_TEXT);
  const siteLinks = sig.links.map((l) => `${l.href} ${l.text}`.toLowerCase());
  const aboutContact = [
    'about',
    'contact',
    'privacy',
    'o-nas',
    'kontakt',
    'prywatno',
    'impressum',
    'datenschutz',
  ].filter((k) => siteLinks.some((l) => l.includes(k))).length;
  // A page is about money or health when its headings or keyword say so or it keeps coming back to
  // it; one quoted insurer or a passing "tax" does not make a plumbing guide YMYL.
  const heads = [doc.title, doc.h1, ctx.kw.text, ...doc.sections.map((s) => s.heading?.text ?? '')]
    .join('\n')
    .toLowerCase();
  // A stem counts at a word's start: "lek" (a medicine) is no part of "daleko" or "elektryczny".
  const ymyl = countStems(heads, lex.ymyl) > 0 || countStems(lower, lex.ymyl) >= Math.max(3, doc.words / 500);
  const disclaimer = lex.disclaimers.some((d) => lower.includes(d));
  const sponsoredLinks = sig.links.filter((l) => /sponsored|affiliate/i.test(l.rel)).length;
  const disclosure = /affiliate|sponsored|partnersk|reklama|werbung|anzeige/i.test(lower) || sponsoredLinks > 0;
  const parts: [number, number][] = [
    [2.5, dated ? 1 : 0],
    [1, sources || evidence ? 1 : 0],
    [2.5, ymyl ? (disclaimer ? 1 : 0) : 1],
  ];
  if (doc.url) parts.push([2, doc.url.startsWith('https://') ? 1 : 0]);
  if (html) parts.push([2, aboutContact / 2], [0.5, disclosure ? 1 : 0.5]);
  const trust = exactRatio(parts);

  const [e, x, a, t] = [experience, expertise, authority, trust].map(round1) as [number, number, number, number];
  return {
    eeat: { experience: e, expertise: x, authority: a, trust: t, average: round1((e + x + a + t) / 4) },
    exact: (experience + expertise + authority + trust) / 4,
  };
};
