import { withPageVerb } from './keywordVerb.ts';
import { AppError } from '../../core/errors.ts';
import { deriveCsi } from './csi.ts';
import { buildDoc, createAnalyzer, detectFormat, parseContent, type Analyzer } from './document.ts';
import { evidenceOf } from './evidence.ts';
import { boundDepth } from './html/boundDepth.ts';
import { germanNouns } from './headNoun.ts';
import { describeKeyword, detectKeyword, refineIntent } from './keyword.ts';
import { keywordLanguage, resolveLanguage } from './language.ts';
import { reportsEvent, serpReportsNews } from './newsSignals.ts';
import { readCompetitor, unmeasurable } from './competitors.ts';
import { classifyProfile } from './profile.ts';
import { lexiconFor } from './text/lexicon.ts';
import type { Csi, EngineInput } from './types.ts';

export const MAX_CONTENT_CHARS = 200_000;
export const MIN_MAIN_TEXT_CHARS = 50;

export interface Preparation {
  keyword: string;
  language: string;
  csi: Csi;
}

/** The prepared document, for the scoring that follows (audit.ts). */
export const prepareDocument = (input: EngineInput) => {
  const supplied = input.content ?? '';
  const format = detectFormat(supplied, input.format);
  // A page is read, quoted and re-scored as its depth-capped copy (the same bytes for real pages).
  const content = format === 'html' ? boundDepth(supplied) : supplied;
  // Supplied text counts as given; a page counts by its main text, not its markup and scripts.
  if (format !== 'html' && content.length > MAX_CONTENT_CHARS) {
    throw new AppError(
      'content_too_large',
      `The content has ${content.length} characters; the limit is ${MAX_CONTENT_CHARS}.`,
    );
  }
  const parsed = parseContent(content, format, input.url);
  if (format === 'html' && parsed.text.length > MAX_CONTENT_CHARS) {
    throw new AppError(
      'content_too_large',
      `The page's main text has ${parsed.text.length} characters; the limit is ${MAX_CONTENT_CHARS}.`,
    );
  }
  if (parsed.text.replace(/\s+/g, ' ').trim().length < MIN_MAIN_TEXT_CHARS) {
    throw format === 'html'
      ? new AppError('crawl_failed', `The page has less than ${MIN_MAIN_TEXT_CHARS} characters of main text.`)
      : new AppError('invalid_request', `The content has less than ${MIN_MAIN_TEXT_CHARS} characters of text.`);
  }
  const language = resolveLanguage(parsed.text, input.language);
  const an = createAnalyzer(language);
  const lex = lexiconFor(language);
  const suppliedTitle = (input.title ?? '').trim() || null;
  const first = buildDoc(parsed, content, an, input.url, suppliedTitle);
  const keyword =
    (input.keyword ?? '').trim() ||
    detectKeyword(
      first.title,
      first.blocks,
      first.sentences.map((s) => s.text),
      keywordLanguage(parsed.text, input.language),
    );
  // Supplied text without a title takes the keyword as its title (spec 4.2).
  const titleOverride = suppliedTitle ?? (first.title ? null : keyword);
  const doc = titleOverride ? { ...first, title: titleOverride } : first;
  // The entity is what the writer's own sentences repeat: a quotation's attribution or a cited
  // source's place ("na Politechnice Wrocławskiej") is the speaker's wording, not the page's subject.
  const support = evidenceOf(doc).sentences;
  const body = doc.sentences.filter((s) => !support.has(s)).map((s) => s.stems);
  const nouns = language === 'de' ? germanNouns(doc.text) : null;
  const profile = classifyProfile(doc, lex);
  const described = withPageVerb(
    describeKeyword(keyword, an, body, nouns),
    an,
    doc.sentences.map((s) => s.text),
    body,
    nouns,
  );
  const pageNews = profile === 'news' || reportsEvent(doc);
  const refined = refineIntent(described, doc.text, an, pageNews);
  // A place in the keyword reads as a service's area unless the query asks for news: the SERP
  // says which ("hochwasser <town>" over reports of the flood), whatever the audited page is like.
  const kw =
    refined.intent === 'local' && !pageNews && serpAsksNews(input.benchmark, an)
      ? refineIntent(described, doc.text, an, true)
      : refined;
  const csi = deriveCsi(doc, kw, profile);
  return { format, language, an, lex, parsed, doc, keyword, kw, csi, titleOverride };
};

/**
 * The audit's preparation — main text, language, keyword, central search intent — without the
 * scoring. The service takes the credit between this and the scoring (spec 3.1), so a failure here
 * (content_too_large, crawl_failed, keyword_required, csi_failed) costs nothing.
 */
export const prepareAudit = (input: EngineInput): Preparation => {
  const { keyword, language, csi } = prepareDocument(input);
  return { keyword, language, csi };
};

/** The SERP's readable results report an event (newsSignals.ts): the query asks for news. */
const serpAsksNews = (serp: EngineInput['benchmark'], an: Analyzer): boolean =>
  !!serp &&
  serpReportsNews(
    serp.competitors.flatMap((c) => {
      const read = unmeasurable(c) ? null : readCompetitor(c, an);
      return read ? [read.doc] : [];
    }),
  );

/** What prepareDocument gives the scoring. */
export type PreparedDocument = ReturnType<typeof prepareDocument>;
