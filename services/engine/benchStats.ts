import type { ReferentModel } from './referent.ts';
import type { Doc } from './types.ts';

/** What the lead sentences of one section say (query fan-out, dimensions/queryFanout.ts). */
export interface Lead {
  index: number;
  stems: Set<string>;
  words: Set<string>;
  headingWords: Set<string>;
}

export interface CompStats {
  url: string;
  domain: string;
  doc: Doc;
  terms: Map<string, number>;
  leads: Lead[];
  valueDensity: number;
  shingles: Set<string>;
}

export interface TermTarget {
  key: string;
  surface: string;
  weight: number;
  p25: number;
  p90: number;
}

export interface BenchStats {
  comps: CompStats[];
  excluded: { url: string; domain: string; reason: string }[];
  targets: TermTarget[];
  attributes: { stem: string; surface: string }[];
  valueDensityMedian: number;
  lengthMedian: number;
  shingles: Map<string, number>;
  paa: string[];
  related: string[];
  /** The SERP's consensus on what the keyword names; null with fewer than 3 pages (unknown). */
  referent: ReferentModel | null;
  /** Two or more results report an event (newsSignals.ts): the query asks for news, not an evergreen answer. */
  reportsNews: boolean;
}
