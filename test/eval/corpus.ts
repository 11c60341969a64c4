import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DimensionId, SerpBenchmarkInput } from '../../services/engine/types.ts';

/**
 * The evaluation corpus (test/fixtures/eval/<half>/<topic>/, format in docs/scoring.md): articles
 * written independently of the engine, a strong and a poor version and one about the keyword's
 * other referent, with a SERP file whose competitors are local Markdown files.
 */

export const EVAL_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'eval');
export type Half = 'tuning' | 'heldout';
export const HALVES: Half[] = ['tuning', 'heldout'];

export interface Topic {
  id: string;
  half: Half;
  dir: string;
  language: 'en' | 'pl' | 'de';
  keyword: string;
  contentType: string;
  intent: string;
  headNoun: string;
  weakens: DimensionId[];
  strong: string;
  poor: string;
  other: string;
  serp: SerpBenchmarkInput;
  /** URLs of the SERP entries marked "referent": "other". */
  otherUrls: string[];
}

interface SerpEntry {
  searchVolume: number;
  serpOrganicCount: number;
  organic: { url: string; title: string; file?: string; referent?: string }[];
  paa?: string[];
  related?: string[];
}

const REQUIRED = ['topic.json', 'strong.md', 'poor.md', 'other.md', 'serp.json'];

export const loadTopic = (half: Half, id: string): Topic => {
  const dir = join(EVAL_DIR, half, id);
  const read = (f: string) => readFileSync(join(dir, f), 'utf8');
  const meta = JSON.parse(read('topic.json')) as Omit<
    Topic,
    'half' | 'dir' | 'strong' | 'poor' | 'other' | 'serp' | 'otherUrls'
  >;
  const serpFile = JSON.parse(read('serp.json')) as Record<string, SerpEntry>;
  const entry =
    Object.entries(serpFile).find(([k]) => k.trim().toLowerCase() === meta.keyword.trim().toLowerCase())?.[1] ??
    Object.values(serpFile)[0];
  if (!entry) throw new Error(`${id}: serp.json has no entry`);
  return {
    ...meta,
    id,
    half,
    dir,
    strong: read('strong.md'),
    poor: read('poor.md'),
    other: read('other.md'),
    serp: {
      searchVolume: entry.searchVolume,
      serpOrganicCount: entry.serpOrganicCount,
      paa: entry.paa ?? [],
      related: entry.related ?? [],
      competitors: entry.organic.map((o) => ({ url: o.url, title: o.title, text: o.file ? read(o.file) : null })),
    },
    otherUrls: entry.organic.filter((o) => o.referent === 'other').map((o) => o.url),
  };
};

/** The complete topics of a half (a topic appears whole, by one rename), in id order. */
export const topicIds = (half: Half): string[] => {
  const root = join(EVAL_DIR, half);
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((id) => REQUIRED.every((f) => existsSync(join(root, id, f))))
    .sort();
};

export const loadHalf = (half: Half): Topic[] => topicIds(half).map((id) => loadTopic(half, id));
