import type { Analyzer } from './document.ts';
import type { BenchStats } from './benchStats.ts';
import type { Lexicon } from './text/lexicon.ts';
import type { ActionType, Change, DimensionId, Doc, KeywordInfo, ProfileId } from './types.ts';

/** What every dimension function receives besides the document. */
export interface ScoringContext {
  an: Analyzer;
  lex: Lexicon;
  lang: string;
  kw: KeywordInfo;
  bench: BenchStats | null;
  /** Shingles of the document itself when a competitor is scored (its own text is not "the SERP"). */
  selfShingles: Set<string> | null;
  /** Content type of the document being scored. */
  profile: ProfileId;
}

/** A problem a dimension found, with the change that fixes it when one can be written. */
export interface Finding {
  title: string;
  problem: string;
  suggestion: string;
  section: string;
  /** Position of the section in the document, for sorting. */
  sectionIndex: number;
  actionType: ActionType;
  /** 0-1: how much of the dimension the problem costs (impact when no change is measured). */
  severity: number;
  change: Change | null;
  /** The problem triggers a CQS gate. */
  gate: boolean;
  /** Indexes into the included competitors that do what the change asks for. */
  competitors: number[];
  /** What kind of problem this is, so recommendations.ts can ground it (issue 23); unset = never a recommendation. */
  kind?: FindingKind;
  /** The kind's subject: the PAA question, the facet id, the vague word, the stuffed phrase. */
  subject?: string;
  /** The figure the dimension measured, for the evidence when the gate cannot recompute it (stuffing counts). */
  figure?: string;
  /**
   * The problem is the whole page's, not one sentence's: the title, or three sentences or more (the
   * query pasted as typed, the phrase spread). An editor fixes it before adding sections.
   */
  pageWide?: boolean;
}

export type FindingKind =
  | 'paa'
  | 'facet'
  | 'vague'
  | 'factsTable'
  | 'blufIntro'
  | 'blufOpening'
  | 'blufSection'
  | 'stuffing'
  | 'stuffingRewrite'
  | 'stuffingVerbatim'
  | 'stuffingTrim'
  | 'stuffedTitle'
  | 'stuffedHeading'
  | 'filler'
  | 'keywordMore'
  | 'cliche'
  | 'example'
  | 'byline'
  | 'unsourced'
  | 'hedge'
  | 'splitSentence'
  | 'splitParagraph'
  | 'splitSection'
  | 'pronounOpener'
  | 'h1'
  | 'entityIntro'
  | 'terms'
  | 'duplicate'
  | 'headingLevel'
  | 'singleH1'
  | 'jsonLd'
  | 'lang';

export interface DimensionOutcome {
  id: DimensionId;
  score: number;
  summary: string;
  strengths: string[];
  findings: Finding[];
  /** The dimension asks for a CQS cap (csiAlignment < 3: 40; density > 4%: 60). */
  cap: number | null;
}

export interface Scored {
  doc: Doc;
  outcomes: DimensionOutcome[];
  eeat: { experience: number; expertise: number; authority: number; trust: number; average: number };
  cqsRaw: number;
  cqs: number;
  profile: ProfileId;
  /** Keyword density in % (for the stuffing gate and tests). */
  keywordDensity: number;
}
