/**
 * Counted nouns in client text (labels.plural/count/num): Polish one/few/many, English and German
 * one/other, decimals with a comma in Polish text.
 */
import t from 'tap';
import { count, num, plural } from '../../../services/engine/labels.ts';

const WORD: [string, string] = ['word', 'words'];
const SLOWO: [string, string, string] = ['słowo', 'słowa', 'słów'];

t.test('Polish: 1 słowo, 2–4 (not 12–14) słowa, else słów', async (t) => {
  const cases: [number, string][] = [
    [0, '0 słów'],
    [1, '1 słowo'],
    [2, '2 słowa'],
    [4, '4 słowa'],
    [5, '5 słów'],
    [12, '12 słów'],
    [14, '14 słów'],
    [22, '22 słowa'],
    [42, '42 słowa'],
    [101, '101 słów'],
    [892, '892 słowa'],
  ];
  for (const [n, want] of cases) t.equal(count('pl', n, WORD, SLOWO), want);
  t.equal(count('pl', 2.5, WORD, SLOWO), '2,5 słowa', 'a fraction takes the genitive singular, with a comma');
});

t.test('a verb agrees through the forms', async (t) => {
  const forms: [string, string, string] = ['termin występuje', 'terminy występują', 'terminów występuje'];
  t.equal(plural('pl', 1, ['term appears', 'terms appear'], forms), 'termin występuje');
  t.equal(plural('pl', 4, ['term appears', 'terms appear'], forms), 'terminy występują');
  t.equal(plural('pl', 7, ['term appears', 'terms appear'], forms), 'terminów występuje');
  t.equal(plural('en', 1, ['term appears', 'terms appear'], forms), 'term appears');
  t.equal(plural('en', 0, ['term appears', 'terms appear'], forms), 'terms appear');
});

t.test('English and German: one/other; German content reads the English text unless given its own', async (t) => {
  t.equal(count('en', 1, ['example', 'examples'], ['przykład', 'przykłady', 'przykładów']), '1 example');
  t.equal(count('en', 3, ['example', 'examples'], ['przykład', 'przykłady', 'przykładów']), '3 examples');
  t.equal(count('de', 1.5, WORD, SLOWO), '1.5 words', 'English text keeps the decimal point');
  t.equal(count('de', 1, WORD, SLOWO, ['Wort', 'Wörter']), '1 Wort');
  t.equal(count('de', 2.5, WORD, SLOWO, ['Wort', 'Wörter']), '2,5 Wörter');
});

t.test('num: a decimal comma in Polish and German text only', async (t) => {
  t.equal(num('pl', 4.37), '4,37');
  t.equal(num('de', 4.37), '4,37');
  t.equal(num('en', 4.37), '4.37');
  t.equal(num('pl', 12), '12');
});
