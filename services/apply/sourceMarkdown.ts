import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';
import TurndownService from 'turndown';
import { boundDepth } from '../engine/html/boundDepth.ts';

/**
 * The article as Markdown, the text a rewrite starts from (spec 4.11 rule 4, 2.6 result.markdown):
 * supplied text is already its Markdown source; a fetched page is reduced to its main content
 * (Readability, as the engine does) and converted with turndown, images kept as Markdown images.
 */
export const toMarkdown = (content: string, format: 'html' | 'text' | null): string => {
  if (format !== 'html') return content.replace(/\r\n?/g, '\n');
  // Read with its nesting capped, as the engine reads it: Readability slows with depth.
  const { document } = parseHTML(boundDepth(content));
  const article = new Readability(document as never).parse();
  const html = article?.content ?? (document as unknown as { body?: { innerHTML: string } }).body?.innerHTML ?? content;
  const title = article?.title ?? '';
  const td = new TurndownService({
    headingStyle: 'atx',
    bulletListMarker: '-',
    codeBlockStyle: 'fenced',
    emDelimiter: '*',
  });
  td.remove(['script', 'style', 'noscript', 'iframe']);
  let md = td.turndown(html).trim();
  // Readability moves the H1 into its title: keep it as the article's heading.
  if (title && !/^#\s/m.test(md)) md = `# ${title}\n\n${md}`;
  return `${md}\n`;
};
