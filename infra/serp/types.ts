/**
 * The SERP and keyword-data port. The engine's benchmark needs, for the audit's keyword: the
 * search volume, the organic results (whose pages are then crawled and scored), People Also Ask
 * questions and related searches. Providers: none, file, http (DataForSEO).
 */

export interface OrganicResult {
  url: string;
  title: string;
}

export interface SerpData {
  /** Monthly searches; 0 when the provider has no figure. */
  searchVolume: number;
  /** How many organic results the SERP showed (the length of `organic` for the providers here). */
  serpOrganicCount: number;
  /** In SERP order. */
  organic: OrganicResult[];
  paa: string[];
  related: string[];
}

export interface SerpProvider {
  readonly name: 'none' | 'file' | 'http';
  /** SERP and volume for one keyword; null when there is no data (the benchmark is then null). */
  lookup(keyword: string, language: string): Promise<SerpData | null>;
  /**
   * Search volumes for a whole batch in one call (spec 4.4 rule 4). Keyed by each keyword as
   * given; null where the provider has no figure.
   */
  searchVolumes(keywords: string[], language: string): Promise<Map<string, number | null>>;
}
