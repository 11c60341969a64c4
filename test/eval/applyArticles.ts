import { planItems, type PlannedItem } from '../../services/apply/items.ts';
import { toMarkdown } from '../../services/apply/sourceMarkdown.ts';
import { auditContent } from '../../services/engine/audit.ts';
import type { EngineResult } from '../../services/engine/types.ts';
import { articles, read } from '../fixtures/engine/corpus.ts';
import { corpusATopics, readCorpusA } from './corpusA.ts';

/** An article of the test corpora as apply sees it: the audit's result, its Markdown and its items. */
export interface AuditedArticle {
  name: string;
  language: string;
  keyword: string;
  markdown: string;
  result: EngineResult;
  items: PlannedItem[];
}

interface Source {
  name: string;
  content: string;
  format: 'html' | 'text';
  keyword: string;
  language: string;
}

/** The engine fixtures (weak and strong) and corpus-a (weak and strong), audited offline. */
export const applySources = (): Source[] => [
  ...articles.flatMap((a) =>
    (['weak', 'strong'] as const).map((v): Source => ({
      name: `engine/${v}/${a.id}`,
      content: read(v, a),
      format: a.file.endsWith('.html') ? 'html' : 'text',
      keyword: a.keyword,
      language: a.language,
    })),
  ),
  ...corpusATopics().flatMap((topic) =>
    (['weak', 'strong'] as const).flatMap((v): Source[] => {
      const content = readCorpusA(topic, v);
      return content === null
        ? []
        : [
            {
              name: `corpus-a/${topic.slug}.${v}`,
              content,
              format: 'text',
              keyword: topic.keyword,
              language: topic.language,
            },
          ];
    }),
  ),
];

export const auditForApply = (s: Source): AuditedArticle => {
  const result = auditContent({
    content: s.content,
    format: s.format,
    url: null,
    keyword: s.keyword,
    language: s.language,
  });
  const markdown = toMarkdown(s.content, s.format);
  const language = result.input.language ?? s.language;
  const keyword = result.input.keyword ?? s.keyword;
  const items = planItems({
    markdown,
    language,
    keyword,
    recommendations: result.recommendations,
    paa: result.benchmark?.paa ?? [],
    title: /^#\s+(.+)$/m.exec(markdown)?.[1] ?? null,
  });
  return { name: s.name, language, keyword, markdown, result, items };
};
