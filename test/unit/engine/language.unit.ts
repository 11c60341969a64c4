import t from 'tap';
import { detectFormat, parseContent } from '../../../services/engine/document.ts';
import { keywordLanguage, resolveLanguage } from '../../../services/engine/language.ts';
import { loadSet } from '../../eval/corpus.ts';
import { articles, read } from '../../fixtures/engine/corpus.ts';

/**
 * Language detection on every text of the fixtures whose language is known: the evaluation
 * corpus's halves and corpus-a (articles, other-referent articles and competitor pages) and the
 * engine corpus, on the engine's sample and on the first 200 characters of the main text. The
 * detector's database was chosen by this test (services/engine/language.ts): it must stay 100 %.
 */

interface Known {
  name: string;
  language: string;
  content: string;
}

const known: Known[] = [
  ...(['tuning', 'heldout', 'corpus-a'] as const).flatMap((set) =>
    loadSet(set).flatMap((topic) => [
      ...(['strong', 'poor', 'other'] as const).map((v) => ({
        name: `${set}/${topic.id}/${v}`,
        language: topic.language,
        content: topic[v],
      })),
      ...topic.serp.competitors
        .filter((c) => c.text)
        .map((c) => ({ name: `${set}/${topic.id}/${c.url}`, language: topic.language, content: c.text! })),
    ]),
  ),
  ...articles.flatMap((a) =>
    (['strong', 'weak'] as const).map((v) => ({
      name: `engine/${v}/${a.file}`,
      language: a.language,
      content: read(v, a),
    })),
  ),
];

const mainText = (content: string) => parseContent(content, detectFormat(content), null).text;

t.test('the corpora hold texts in the three languages', async (t) => {
  for (const language of ['en', 'pl', 'de']) t.ok(known.filter((k) => k.language === language).length >= 30, language);
});

t.test('every known text is detected in its language, whole and by its first 200 characters', async (t) => {
  const wrong: string[] = [];
  for (const k of known) {
    const text = mainText(k.content);
    for (const [what, sample] of [
      ['whole', text],
      ['200', text.slice(0, 200)],
    ] as const) {
      const got = resolveLanguage(sample, null);
      if (got !== k.language) wrong.push(`${k.name} (${what}): ${got}, not ${k.language}`);
      const restricted = keywordLanguage(sample, null);
      if (restricted !== k.language) wrong.push(`${k.name} (${what}, en/pl/de): ${restricted}, not ${k.language}`);
    }
  }
  t.same(wrong, [], `${known.length} texts`);
});

t.test('a supplied code wins; nothing detectable settles on English', async (t) => {
  t.equal(resolveLanguage('Dies ist ein deutscher Text über Schrauben und Muttern.', 'FR'), 'fr');
  t.equal(resolveLanguage('   ', null), 'en');
  t.equal(resolveLanguage('Zażółć gęślą jaźń, to jest polski tekst o kluczach.', null), 'pl');
});
