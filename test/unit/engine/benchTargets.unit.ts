/**
 * What a SERP benchmark may ask a client to add (benchTargets.ts): on every tuning and corpus-a
 * topic, strong and poor, no target term or attribute is a stop word, a general-language word or a
 * word of another language; and a term needs more than half of the informative competitors and at
 * least two of them.
 */
import t from 'tap';
import { agreed, topicalSurface } from '../../../services/engine/benchTargets.ts';
import { buildBench } from '../../../services/engine/benchmark.ts';
import { createAnalyzer } from '../../../services/engine/document.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';
import { generalWordsFor, inLanguage } from '../../../services/engine/text/stopwords.ts';
import { loadSet } from '../../eval/corpus.ts';

t.test('agreement: more than half of the pages, and at least two', async (t) => {
  t.notOk(agreed(1, 1), 'one page alone sets nothing');
  t.notOk(agreed(1, 2));
  t.ok(agreed(2, 2));
  t.ok(agreed(2, 3));
  t.notOk(agreed(2, 4), 'half is not a majority');
  t.ok(agreed(3, 4));
});

t.test('a surface qualifies when it is in the language and one word is topical', async (t) => {
  const pl = createAnalyzer('pl');
  const en = createAnalyzer('en');
  t.notOk(topicalSurface('example', pl), 'an English word in a Polish report');
  t.notOk(topicalSurface('always', pl));
  t.notOk(topicalSurface('dobry', pl), 'a general Polish adjective');
  t.ok(topicalSurface('wymiennik ciepła', pl));
  t.notOk(topicalSurface('something', en));
  t.notOk(topicalSurface('https', en), 'an address fragment');
  t.ok(topicalSurface('boiler pressure', en));
  t.notOk(topicalSurface('gdańsk', en), 'Polish letters are not English');
  t.ok(inLanguage('gdańsk', 'pl'));
});

t.test('corpus-wide: no stop word, general word or other-language word is a target or an attribute', async (t) => {
  for (const set of ['tuning', 'corpus-a'] as const)
    for (const topic of loadSet(set))
      for (const q of ['strong', 'poor'] as const) {
        const input = { content: topic[q], url: null, keyword: topic.keyword, language: topic.language };
        const p = prepareDocument(input);
        const b = buildBench(topic.serp, p.doc, p.kw, p.an, p.lex);
        const general = generalWordsFor(p.an.lang);
        const bad = [...b.targets.map((x) => x.surface), ...b.attributes.map((x) => x.surface)].filter((s) => {
          const words = s.split(/\s+/);
          return words.some((w) => !inLanguage(w, p.an.lang)) || words.every((w) => p.an.stop.has(w) || general.has(w));
        });
        t.same(bad, [], `${set}/${topic.id}/${q}`);
      }
});

t.test('a SERP of the page itself, a stuffed page and another meaning sets no targets', async (t) => {
  const topic = loadSet('corpus-a').find((x) => x.language === 'en');
  if (!topic) return;
  const p = prepareDocument({ content: topic.strong, url: null, keyword: topic.keyword, language: topic.language });
  const b = buildBench(topic.serp, p.doc, p.kw, p.an, p.lex);
  t.same(b.targets, [], 'one informative page at most: nothing agreed');
  t.same(b.attributes, []);
});
