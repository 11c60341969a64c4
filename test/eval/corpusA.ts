import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORPUS_A_DIR } from './corpus.ts';

/**
 * The external evaluation articles (shared/eval/corpus-a, copied into test/fixtures/eval/corpus-a):
 * per topic a strong, a weak and an other-referent article.
 */
export { CORPUS_A_DIR };

export interface CorpusATopic {
  slug: string;
  language: 'en' | 'pl' | 'de';
  keyword: string;
  contentType: string;
}

export type CorpusAVariant = 'strong' | 'weak' | 'offtopic';

export const corpusATopics = (): CorpusATopic[] => {
  const index = join(CORPUS_A_DIR, 'index.jsonl');
  if (!existsSync(index)) return [];
  return readFileSync(index, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as CorpusATopic)
    .filter((topic) => existsSync(join(CORPUS_A_DIR, `${topic.slug}.strong.md`)));
};

export const readCorpusA = (topic: CorpusATopic, variant: CorpusAVariant): string | null => {
  const file = join(CORPUS_A_DIR, `${topic.slug}.${variant}.md`);
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
};
