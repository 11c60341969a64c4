import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { snippetToHtml } from '../services/engine/apply.ts';
import { auditContent } from '../services/engine/audit.ts';

/**
 * Engine benchmark: median wall time of a full audit (recommendation deltas included) of a
 * 2,000-word and a 20,000-word article, built from the test corpus, as Markdown and as a fetched
 * HTML page (main content by Readability; a measured delta re-reads only the changed block when it
 * can, else re-extracts the page: docs/scoring.md). Targets: 150 ms
 * and 1.5 s.
 */

const here = dirname(fileURLToPath(import.meta.url));
const corpus = join(here, '..', 'test', 'fixtures', 'engine', 'strong');

/** An article of about `words` words: the corpus's how-to, its sections repeated with varied wording. */
export const syntheticArticle = (words: number): string => {
  const src = readFileSync(join(corpus, 'en-howto-descale.md'), 'utf8');
  const [head = '', ...sections] = src.split('\n## ');
  const out = [head];
  let i = 0;
  while (out.join(' ').split(/\s+/).length < words) {
    for (const s of sections) {
      i++;
      out.push(
        s
          .replace('\n', ` (part ${i})\n`)
          .replace(/water/g, i % 2 ? 'water' : 'tap water')
          .replace(/machine/g, i % 3 ? 'machine' : 'espresso maker'),
      );
      if (out.join(' ').split(/\s+/).length >= words) break;
    }
  }
  return out.join('\n## ');
};

/** The same article as a page: header navigation, the article, a footer. */
export const syntheticPage = (words: number): string =>
  `<!doctype html><html lang="en"><head><title>How to Descale an Espresso Machine</title></head><body><header><nav><a href="/">Home</a> <a href="/about">About</a></nav></header><article>\n${syntheticArticle(
    words,
  )
    .split(/\n{2,}/)
    .map((b) => snippetToHtml(b))
    .join(
      '\n',
    )}\n</article><footer><a href="/contact">Contact</a> <a href="/privacy">Privacy</a></footer></body></html>`;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

const time = (content: string, runs: number): number => {
  auditContent({ content, url: null, keyword: 'descale espresso machine' }); // warm-up
  const ms: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    auditContent({ content, url: null, keyword: 'descale espresso machine' });
    ms.push(performance.now() - t0);
  }
  return Math.round(median(ms) * 10) / 10;
};

export async function benchEngine(): Promise<{ name: string; value: number; unit: string; target?: string }[]> {
  return [
    {
      name: 'engine audit, 2,000 words (median, deltas included)',
      value: time(syntheticArticle(2000), 15),
      unit: 'ms',
      target: '< 150 ms',
    },
    {
      name: 'engine audit, 20,000 words (median, deltas included)',
      value: time(syntheticArticle(20000), 5),
      unit: 'ms',
      target: '< 1500 ms',
    },
    {
      name: 'engine audit, 2,000-word HTML page (median, deltas included)',
      value: time(syntheticPage(2000), 15),
      unit: 'ms',
      target: '< 150 ms',
    },
    {
      name: 'engine audit, 20,000-word HTML page (median, deltas included)',
      value: time(syntheticPage(20000), 5),
      unit: 'ms',
      target: '< 1500 ms',
    },
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const r of await benchEngine()) console.log(`${r.name}: ${r.value} ${r.unit} (target ${r.target})`);
}
