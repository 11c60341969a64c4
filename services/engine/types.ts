/**
 * Types shared across the engine: what goes in, the parsed document every dimension reads,
 * and the pieces of AuditResultV1 the engine produces (spec 2.3).
 */

export type Lang = string; // ISO 639-1, lower case
export type ContentFormat = 'html' | 'markdown' | 'text';

export interface CompetitorInput {
  url: string;
  title?: string | null;
  /** Fetched HTML of the page, or its extracted text/Markdown. One of them is needed to score it. */
  html?: string | null;
  text?: string | null;
}

export interface SerpBenchmarkInput {
  searchVolume: number;
  serpOrganicCount: number;
  paa: string[];
  related: string[];
  competitors: CompetitorInput[];
}

export interface EngineInput {
  /** HTML of a fetched page, or supplied text/Markdown. */
  content: string;
  /** Forced format; detected when omitted (HTML when it looks like markup). */
  format?: ContentFormat;
  /** Supplied title (text input only). */
  title?: string | null;
  url: string | null;
  keyword?: string | null;
  language?: string | null;
  benchmark?: SerpBenchmarkInput | null;
}

// ---- parsed document ----

export type BlockKind = 'heading' | 'paragraph' | 'list' | 'table' | 'code' | 'quote' | 'image';

export interface Block {
  kind: BlockKind;
  /** Heading level 1-6; 0 otherwise. */
  level: number;
  /** Plain text (inline markup stripped). */
  text: string;
  /** The block exactly as it stands in the content (verbatim slice), used for BEFORE and insert anchors. */
  raw: string;
  /** List items / table cells as plain text. */
  items: string[];
  /**
   * A list whose every item is only links to places on this page, or that list's bold caption: a
   * table of contents, not the article's words.
   */
  navigation?: boolean;
  /**
   * HTML only: where `raw` starts in the content, and how deep its element sits under Readability's
   * result (2 = a top-level sibling Readability judged on its own). Lets a change inside one block be
   * re-scored without re-extracting the page (html/extract.ts, reextractHtml).
   */
  src?: { at: number; depth: number };
}

export interface Section {
  index: number;
  /** null for the introduction (text before the first H2/H3). */
  heading: Block | null;
  level: number;
  blocks: Block[];
  words: number;
}

export interface Sentence {
  text: string;
  section: number;
  /** Index of the paragraph-like block inside its section. */
  block: number;
  /** First sentence of its block. */
  first: boolean;
  /** Running prose, a list item, or a table row. */
  kind: 'prose' | 'list' | 'table';
  words: string[];
  stems: string[];
  /** Stems without stop words. */
  content: string[];
}

export interface LinkInfo {
  href: string;
  text: string;
  rel: string;
  internal: boolean;
}

export interface PageSignals {
  isHtml: boolean;
  htmlBytes: number;
  mainTextChars: number;
  bodyTextChars: number;
  titleTag: string;
  metaDescription: string;
  /** <link rel=canonical> href as written; '' when absent (text input). */
  canonical: string;
  langAttr: string;
  h1Count: number;
  jsonLd: unknown[];
  jsonLdInvalid: number;
  jsonLdTypes: string[];
  author: string;
  datePublished: string;
  dateModified: string;
  links: LinkInfo[];
  images: { src: string; alt: string }[];
  inlineScriptBytes: number;
  /** Button labels of the whole page (add to cart, buy now …), which main-content extraction drops. */
  actions: string[];
  sameAs: number;
}

export interface Doc {
  format: ContentFormat;
  content: string;
  language: Lang;
  url: string | null;
  title: string;
  h1: string;
  blocks: Block[];
  sections: Section[];
  sentences: Sentence[];
  /** Sentences per section. */
  bySection: Sentence[][];
  words: number;
  /** Main text, plain. */
  text: string;
  signals: PageSignals;
}

// ---- keyword, CSI ----

export type Intent =
  'informational' | 'instructional' | 'comparison' | 'commercial' | 'transactional' | 'local' | 'navigational';

export interface KeywordInfo {
  text: string;
  /** Content stems of the whole phrase. */
  stems: string[];
  /** Central entity: the keyword without intent modifiers and verbs. */
  entity: string;
  entityStems: string[];
  /** Verb of the keyword, '' when it has none. */
  verb: string;
  verbStem: string;
  intent: Intent;
  /**
   * Stems whose sentence is a whole natural use of the keyphrase, where the page states the rest
   * once (a local page's service, its city in the address; a report's event, its place in the lead).
   */
  wholeUse?: string[];
}

export interface Csi {
  centralEntity: string;
  sourceContext: string;
  centralSearchIntent: string;
  predicate: string;
}

// ---- results ----

export type ActionType = 'add' | 'replace' | 'remove' | 'restructure';
export type Priority = 'critical' | 'high' | 'medium' | 'bonus';
export type Impact = 'high' | 'medium' | 'low';

export interface Problem {
  title: string;
  problem: string;
  suggestion: string;
  impact: Impact;
  section: string;
  actionType: ActionType;
}

export interface Dimension {
  id: DimensionId;
  name: string;
  score: number;
  summary: string;
  strengths: string[];
  problems: Problem[];
}

export const DIMENSION_IDS = [
  'csiAlignment',
  'density',
  'eav',
  'bluf',
  'chunk',
  'cor',
  'tfidf',
  'srl',
  'queryFanout',
  'effort',
] as const;
export type DimensionId = (typeof DIMENSION_IDS)[number];

export interface Eeat {
  experience: number;
  expertise: number;
  authority: number;
  trust: number;
  average: number;
}

/** A change the engine can apply to the content itself, so its effect can be measured. */
export type Change =
  | { kind: 'replace'; before: string; after: string }
  | { kind: 'insert'; placement: Placement; anchor: string; after: string };

/** Where an addition goes: right after / before the verbatim anchor, or at the end of the content. */
export type Placement = 'after' | 'before' | 'end';

export interface Recommendation {
  id: string;
  priority: Priority;
  title: string;
  dimension: DimensionId;
  actionType: ActionType;
  section: string;
  before: string;
  after: string;
  /** For additions (before = ''): where `after` goes. null for replacements and removals. */
  insertAt: { placement: Placement; anchor: string } | null;
  impact: string;
  estimatedCqsDelta: number;
  /**
   * The AFTER holds author-data slots ("[fill in: …]"): a request for facts only the author has,
   * not text to paste (apply shows it as authorDataOnly). Optional in the schema for stored results.
   */
  authorDataOnly: boolean;
  /** An author task: what to add, where and why (the AFTER then holds only text the SERP gives, or nothing). */
  task?: string | null;
  /** Why the engine recommends it: the rule and figure, the competitors and PAA questions (issue 23). */
  evidence?: Evidence;
  competitorUrls: { url: string; domain: string }[];
}

export interface Evidence {
  /** The rule that failed, with its dimension. */
  rule: string;
  /** The measured figure (a density, a word count, the phrase found), when there is one. */
  figure: string | null;
  /** Competitors that do what the change asks, with the heading or sentence that shows it. */
  competitors: { url: string; domain: string; quote: string }[];
  /** People Also Ask questions that show the missing sub-topic. */
  questions: string[];
}

export interface BenchmarkResult {
  keyword: string;
  searchVolume: number;
  serpOrganicCount: number;
  paa: string[];
  related: string[];
  competitors: { url: string; domain: string; cqs: number | null; excluded: boolean; reason: string | null }[];
}

export interface SummaryCard {
  status: 'ok' | 'warn' | 'critical';
  top10AvgCqs: number | null;
  problemCounts: { critical: number; high: number; total: number };
  topChange: Recommendation | null;
  profile: { id: ProfileId; label: string };
  quickWins: { id: string; label: string; source: 'recommendation'; dimension: DimensionId }[];
  /** 'full' for English and Polish; 'partial' when the language is only detected (lexicons fall back to English). */
  languageSupport: 'full' | 'partial';
}

export const PROFILE_IDS = [
  'article',
  'how-to',
  'listicle',
  'comparison',
  'review',
  'product',
  'category',
  'landing',
  'glossary',
  'news',
] as const;
export type ProfileId = (typeof PROFILE_IDS)[number];

export interface EngineResult {
  input: { url: string | null; keyword: string | null; language: string | null; project: string | null };
  scores: { cqs: number | null; aiCitability: null };
  csi: Csi;
  dimensions: Dimension[];
  eeat: Eeat | null;
  recommendations: Recommendation[];
  benchmark: BenchmarkResult | null;
  summary: SummaryCard | null;
}
