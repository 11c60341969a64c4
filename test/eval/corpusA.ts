import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The external evaluation articles (shared/eval/corpus-a, beside the repository as CI lays it out):
 * per topic a strong, a weak and an other-referent article. Empty when shared/ is not there, so a
 * test over it says so instead of failing on a missing folder.
 */

export const CORPUS_A_DIR = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  '..',
  'shared',
  'eval',
  'corpus-a',
);

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
