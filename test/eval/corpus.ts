import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DimensionId, EngineInput, SerpBenchmarkInput } from '../../services/engine/types.ts';

/**
 * The evaluation corpus (test/fixtures/eval/<half>/<topic>/, format in docs/scoring.md): articles
 * written independently of the engine, a strong and a poor version and one about the keyword's
 * other referent, with a SERP file whose competitors are local Markdown files.
 */

export const EVAL_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'eval');
/**
 * corpus-b: articles written for this project by writers who never saw the engine, after the
 * tuning; in corpus-a's format, measured only (like the held-out half), never tuned on.
 */
/** Every set the evaluation reads, in the order its reports list them. */
export const SETS = [
  'tuning',
  'heldout',
  'corpus-a',
  'corpus-b',
  'corpus-c',
  'corpus-d',
  'corpus-e',
  'corpus-f',
  'corpus-g',
  'corpus-h',
  'corpus-i',
  'corpus-j',
] as const;
export type Half = (typeof SETS)[number];
/** The sets the engine is tuned on (the held-out half, corpus-b, corpus-d and corpus-j are measured only). */
export const TUNING_SETS = [
  'tuning',
  'corpus-a',
  'corpus-c',
  'corpus-e',
  'corpus-f',
  'corpus-g',
  'corpus-h',
  'corpus-i',
] as const satisfies readonly Half[];
export const HALVES: Half[] = ['tuning', 'heldout'];

/**
 * corpus-a (written outside the project): a copy of shared/eval/corpus-a kept in the fixtures, so
 * that a clean clone anywhere has it (EVAL_CORPUS_A overrides it); absent → no topics.
 */
export const CORPUS_A_DIR = process.env.EVAL_CORPUS_A ?? join(EVAL_DIR, 'corpus-a');

export interface Topic {
  id: string;
  half: Half;
  dir: string;
  language: 'en' | 'pl' | 'de';
  keyword: string;
  contentType: string;
  intent: string;
  headNoun: string;
  weakens: (DimensionId | 'eeat')[];
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

interface CorpusAEntry {
  slug: string;
  language: 'en' | 'pl' | 'de';
  keyword: string;
  contentType: string;
  weakenedOn: string[];
  /** The title's head noun (alternatives with "|"); corpus-a's index lacks it (CORPUS_A_HEAD). */
  headNoun?: string;
}

/**
 * The title's head noun per corpus-a topic (the index does not carry it; alternatives with "|",
 * e.g. both sides of a comparison). Test data, used only by the evaluation.
 */
const CORPUS_A_HEAD: Record<string, string> = {
  'tablet-vs-laptop': 'tablet|laptop',
  'bleed-a-radiator': 'radiator',
  'low-light-houseplants': 'houseplants',
  'stanley-cup-review': 'stanley|cup|quencher',
  'co-to-jest-rekuperacja': 'rekuperacja',
  'zmiana-czasu-2025': 'zmiana|czasu',
  'serwis-klimatyzacji-poznan': 'serwis|klimatyzacji',
  'berliner-selber-machen': 'berliner',
};

/** corpus-a as topics: strong/weak/offtopic, the SERP's local URLs served from the .md files. */
export const CORPUS_B_DIR = join(EVAL_DIR, 'corpus-b');
/** corpus-c: a second set written outside the engine's code, used for tuning (like corpus-a). */
export const CORPUS_C_DIR = join(EVAL_DIR, 'corpus-c');
/** corpus-d: written after the engine's tuning by writers who never saw it; measured only, like corpus-b. */
export const CORPUS_D_DIR = join(EVAL_DIR, 'corpus-d');
/** corpus-e: close other-referents in full SERPs, written outside the engine's code; a tuning set. */
export const CORPUS_E_DIR = join(EVAL_DIR, 'corpus-e');
/** corpus-f: news items whose lead names no day and local pages that inflect their city; a tuning set. */
export const CORPUS_F_DIR = join(EVAL_DIR, 'corpus-f');
/** corpus-g: commercial keywords whose words name a close other product; a tuning set. */
export const CORPUS_G_DIR = join(EVAL_DIR, 'corpus-g');
/** corpus-h: close other referents in German, Polish and English how-tos and tests; a tuning set. */
export const CORPUS_H_DIR = join(EVAL_DIR, 'corpus-h');
/** corpus-i: close other referents in English how-tos and comparisons (and one pl, one de how-to); a tuning set. */
export const CORPUS_I_DIR = join(EVAL_DIR, 'corpus-i');
/** corpus-j: written at stop 45 by writers who never saw the engine, in corpus-a's format; measured only. */
export const CORPUS_J_DIR = join(EVAL_DIR, 'corpus-j');

/** Where each set in corpus-a's format lives. */
const SET_DIRS: Record<Exclude<Half, 'tuning' | 'heldout'>, string> = {
  'corpus-a': CORPUS_A_DIR,
  'corpus-b': CORPUS_B_DIR,
  'corpus-c': CORPUS_C_DIR,
  'corpus-d': CORPUS_D_DIR,
  'corpus-e': CORPUS_E_DIR,
  'corpus-f': CORPUS_F_DIR,
  'corpus-g': CORPUS_G_DIR,
  'corpus-h': CORPUS_H_DIR,
  'corpus-i': CORPUS_I_DIR,
  'corpus-j': CORPUS_J_DIR,
};

/** A set in corpus-a's format (index.jsonl, serp.json, <slug>.<variant>.md) as topics. */
export const loadCorpusA = (dir = CORPUS_A_DIR, half: Exclude<Half, 'tuning' | 'heldout'> = 'corpus-a'): Topic[] => {
  if (!existsSync(join(dir, 'index.jsonl'))) return [];
  const read = (f: string) => readFileSync(join(dir, f), 'utf8');
  const serpFile = JSON.parse(read('serp.json')) as Record<string, SerpEntry>;
  return read('index.jsonl')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as CorpusAEntry)
    .map((m) => {
      const entry = Object.entries(serpFile).find(
        ([k]) => k.trim().toLowerCase() === m.keyword.trim().toLowerCase(),
      )?.[1];
      if (!entry) throw new Error(`${half} ${m.slug}: serp.json has no entry`);
      // http://127.0.0.1:PORT/<slug>.<variant>.html → <slug>.<variant>.md, as the eval serves its SERP files
      const fileOf = (url: string) => url.replace(/^.*\//, '').replace(/\.html$/, '.md');
      const organic = entry.organic.map((o) => ({ ...o, url: o.url.replace('PORT', '8080') }));
      return {
        id: m.slug,
        half,
        dir,
        language: m.language,
        keyword: m.keyword,
        contentType: m.contentType,
        intent: '',
        headNoun: m.headNoun ?? CORPUS_A_HEAD[m.slug] ?? m.keyword.split(' ')[0] ?? '',
        weakens: m.weakenedOn as (DimensionId | 'eeat')[],
        strong: read(`${m.slug}.strong.md`),
        poor: read(`${m.slug}.weak.md`),
        other: read(`${m.slug}.offtopic.md`),
        serp: {
          searchVolume: entry.searchVolume,
          serpOrganicCount: entry.serpOrganicCount,
          paa: entry.paa ?? [],
          related: entry.related ?? [],
          competitors: organic.map((o) => ({ url: o.url, title: o.title, text: read(fileOf(o.url)) })),
        },
        otherUrls: organic.filter((o) => o.url.includes('.offtopic.')).map((o) => o.url),
      };
    });
};

export const loadSet = (set: Half): Topic[] =>
  set === 'tuning' || set === 'heldout' ? loadHalf(set) : loadCorpusA(SET_DIRS[set], set);

/** An audit of one of a topic's articles as the evaluation runs it: with the topic's SERP file, or without one. */
export const topicInput = (t: Topic, content: string, serp = true): EngineInput => ({
  content,
  url: null,
  keyword: t.keyword,
  language: t.language,
  benchmark: serp ? t.serp : null,
});
