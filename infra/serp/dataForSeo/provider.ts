/**
 * The `http` SERP provider on DataForSEO, chosen because it sells both halves the benchmark needs
 * through one documented, pay-per-call API with one credential: the live Google SERP
 * (serp/google/organic/live/advanced: organic results, People Also Ask, related searches) and
 * Google Ads search volumes (keywords_data/google_ads/search_volume/live, up to 1,000 keywords in
 * one task, which is the batch call bulk audits need).
 */
import { DFS_NO_RESULTS, okResult, postTask, type DataForSeoSettings } from './client.ts';
import { locationFor } from './locations.ts';
import type { SerpData, SerpProvider } from '../types.ts';

export interface DataForSeoProviderSettings extends DataForSeoSettings {
  /** Forces one location for every language; otherwise it follows the language (locations.ts). */
  locationCode: number | null;
  /** How many organic results to ask for. */
  depth: number;
}

export const SERP_PATH = '/v3/serp/google/organic/live/advanced';
export const VOLUME_PATH = '/v3/keywords_data/google_ads/search_volume/live';

/** Google Ads' limits on a search_volume task (DataForSEO docs); other keywords get null. */
export const VOLUME_MAX_KEYWORDS = 1000;
const VOLUME_MAX_CHARS = 80;
const VOLUME_MAX_WORDS = 10;

interface SerpItem {
  type?: string;
  url?: string | null;
  title?: string | null;
  items?: unknown[] | null;
}
interface SerpResult {
  items?: SerpItem[] | null;
}
interface VolumeResult {
  keyword?: string;
  search_volume?: number | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);

/** The organic results, PAA questions and related searches of a SERP, in page order. */
export function serpFromItems(items: SerpItem[]): Omit<SerpData, 'searchVolume'> {
  const organic: SerpData['organic'] = [];
  const paa: string[] = [];
  const related: string[] = [];
  for (const item of items) {
    if (item.type === 'organic') {
      const url = str(item.url);
      if (url) organic.push({ url, title: str(item.title) ?? '' });
    } else if (item.type === 'people_also_ask') {
      for (const q of item.items ?? []) {
        const title = str((q as { title?: unknown }).title);
        if (title && !paa.includes(title)) paa.push(title);
      }
    } else if (item.type === 'related_searches') {
      // Documented as an array of strings; tolerate {title} objects too.
      for (const r of item.items ?? []) {
        const text = str(typeof r === 'string' ? r : (r as { title?: unknown })?.title);
        if (text && !related.includes(text)) related.push(text);
      }
    }
  }
  return { serpOrganicCount: organic.length, organic, paa, related };
}

const volumeKey = (k: string) => k.trim().toLowerCase();
const volumeEligible = (k: string) => {
  const t = k.trim();
  return t !== '' && t.length <= VOLUME_MAX_CHARS && t.split(/\s+/).length <= VOLUME_MAX_WORDS;
};

export function createDataForSeoProvider(settings: DataForSeoProviderSettings): SerpProvider {
  const where = (language: string) => ({
    language_code: language,
    location_code: settings.locationCode ?? locationFor(language),
  });

  const searchVolumes = async (keywords: string[], language: string): Promise<Map<string, number | null>> => {
    const out = new Map<string, number | null>(keywords.map((k) => [k, null]));
    const eligible = [...new Set(keywords.filter(volumeEligible).map(volumeKey))];
    for (let i = 0; i < eligible.length; i += VOLUME_MAX_KEYWORDS) {
      const batch = eligible.slice(i, i + VOLUME_MAX_KEYWORDS);
      const task = await postTask<VolumeResult>(settings, VOLUME_PATH, { keywords: batch, ...where(language) });
      const byKey = new Map<string, number | null>();
      for (const r of okResult(task)) {
        if (typeof r.keyword === 'string')
          byKey.set(volumeKey(r.keyword), typeof r.search_volume === 'number' ? r.search_volume : null);
      }
      for (const k of keywords) if (byKey.has(volumeKey(k))) out.set(k, byKey.get(volumeKey(k))!);
    }
    return out;
  };

  return {
    name: 'http',
    searchVolumes,
    async lookup(keyword, language) {
      const [serpTask, volumes] = await Promise.all([
        postTask<SerpResult>(settings, SERP_PATH, { keyword, depth: settings.depth, ...where(language) }),
        searchVolumes([keyword], language),
      ]);
      if (serpTask.status_code === DFS_NO_RESULTS) return null;
      const result = okResult(serpTask)[0];
      if (!result) return null;
      return { searchVolume: volumes.get(keyword) ?? 0, ...serpFromItems(result.items ?? []) };
    },
  };
}
