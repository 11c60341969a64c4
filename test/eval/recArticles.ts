import { runAudit, type AuditRun } from '../../services/engine/audit.ts';
import type { EngineInput, SerpBenchmarkInput } from '../../services/engine/types.ts';
import { articles, read } from '../fixtures/engine/corpus.ts';
import { loadHalf, loadSet } from './corpus.ts';
import { CORPUS_A_DIR, corpusATopics, readCorpusA, type CorpusAVariant } from './corpusA.ts';
import { readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Every article the recommendation rules are checked on (issue 23 item 7): the engine fixtures
 * (strong, weak; no SERP), the tuning half of the evaluation corpus (strong, poor, other; with its
 * SERP), corpus-a (strong, weak, offtopic; with its SERP and without) and corpus-c, corpus-e and corpus-f (the same). The
 * held-out half and corpus-b are left out on purpose: they are kept for the final check.
 */

export type Quality = 'strong' | 'weak' | 'other';

export interface RecArticle {
  name: string;
  quality: Quality;
  keyword: string;
  language: string;
  input: EngineInput;
  /** The writer's genre of the topic (corpus-a's format): "news" marks a news topic's articles. */
  contentType?: string;
}

interface SerpEntry {
  searchVolume: number;
  serpOrganicCount: number;
  organic: { url: string; title: string }[];
  paa?: string[];
  related?: string[];
}

/** corpus-a's SERP file, its organic results read from the local Markdown files they name. */
const corpusASerp = (keyword: string): SerpBenchmarkInput | null => {
  const file = join(CORPUS_A_DIR, 'serp.json');
  if (!existsSync(file)) return null;
  const serp = JSON.parse(readFileSync(file, 'utf8')) as Record<string, SerpEntry>;
  const entry = Object.entries(serp).find(([k]) => k.toLowerCase() === keyword.toLowerCase())?.[1];
  if (!entry) return null;
  return {
    searchVolume: entry.searchVolume,
    serpOrganicCount: entry.serpOrganicCount,
    paa: entry.paa ?? [],
    related: entry.related ?? [],
    competitors: entry.organic.map((o) => {
      const name = /\/([^/]+)\.html$/.exec(o.url)?.[1] ?? '';
      const md = join(CORPUS_A_DIR, `${name}.md`);
      return {
        url: o.url.replace('PORT', '8080'),
        title: o.title,
        text: existsSync(md) ? readFileSync(md, 'utf8') : null,
      };
    }),
  };
};

const A_QUALITY: Record<CorpusAVariant, Quality> = { strong: 'strong', weak: 'weak', offtopic: 'other' };

export const recArticles = (): RecArticle[] => {
  const out: RecArticle[] = [];
  for (const a of articles)
    for (const v of ['strong', 'weak'] as const)
      out.push({
        name: `engine/${v}/${a.id}`,
        quality: v,
        keyword: a.keyword,
        language: a.language,
        input: { content: read(v, a), url: null, keyword: a.keyword },
      });
  for (const topic of loadHalf('tuning'))
    for (const [v, q] of [
      ['strong', 'strong'],
      ['poor', 'weak'],
      ['other', 'other'],
    ] as const)
      out.push({
        name: `tuning/${topic.id}/${v}`,
        quality: q,
        keyword: topic.keyword,
        language: topic.language,
        input: {
          content: topic[v],
          url: null,
          keyword: topic.keyword,
          language: topic.language,
          benchmark: topic.serp,
        },
      });
  for (const topic of corpusATopics()) {
    const serp = corpusASerp(topic.keyword);
    for (const v of ['strong', 'weak', 'offtopic'] as const) {
      const content = readCorpusA(topic, v);
      if (content === null) continue;
      const base = { content, url: null, keyword: topic.keyword, language: topic.language };
      out.push({
        name: `corpus-a/${topic.slug}.${v}`,
        quality: A_QUALITY[v],
        keyword: topic.keyword,
        language: topic.language,
        input: base,
      });
      if (serp)
        out.push({
          name: `corpus-a/${topic.slug}.${v}+serp`,
          quality: A_QUALITY[v],
          keyword: topic.keyword,
          language: topic.language,
          input: { ...base, benchmark: serp },
        });
    }
  }
  for (const topic of [...loadSet('corpus-c'), ...loadSet('corpus-e'), ...loadSet('corpus-f')])
    for (const [v, q] of [
      ['strong', 'strong'],
      ['poor', 'weak'],
      ['other', 'other'],
    ] as const) {
      const base = { content: topic[v], url: null, keyword: topic.keyword, language: topic.language };
      const name = `${topic.half}/${topic.id}.${v}`;
      const meta = { quality: q, keyword: topic.keyword, language: topic.language, contentType: topic.contentType };
      out.push({ name, ...meta, input: base });
      out.push({ name: `${name}+serp`, ...meta, input: { ...base, benchmark: topic.serp } });
    }
  return out;
};

export const auditArticle = (a: RecArticle): AuditRun => runAudit(a.input);
