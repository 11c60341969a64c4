import t from 'tap';
import { createStemmer } from '../../../services/engine/text/stem.ts';

// Inflected forms taken from the corpus articles: each group must share one stem.
const conflates = (lang: string, groups: string[][]) => {
  const stem = createStemmer(lang);
  return groups.map((g) => ({ g, stems: [...new Set(g.map(stem))] }));
};

t.test('Polish: the case forms of corpus nouns and adjectives share a stem', async (t) => {
  for (const { g, stems } of conflates('pl', [
    ['rower', 'roweru', 'rowerem', 'rowery', 'rowerów', 'rowerami'],
    ['kredyt', 'kredytu', 'kredytem', 'kredyty', 'kredytów'],
    ['hipoteczny', 'hipoteczna', 'hipotecznego', 'hipoteczne', 'hipotecznym'],
    ['zakwas', 'zakwasu', 'zakwasem', 'zakwasie', 'zakwasy'],
    ['roślina', 'rośliny', 'roślin', 'roślinami', 'roślinach'],
    ['ekspres', 'ekspresu', 'ekspresem', 'ekspresie'],
    ['ciśnieniowy', 'ciśnieniowego', 'ciśnieniowe', 'ciśnieniowym'],
    ['kawa', 'kawy', 'kawę', 'kaw'],
    ['cena', 'cenie', 'ceny'],
    ['balkon', 'balkonu', 'balkonie', 'balkonach'],
  ]))
    t.equal(stems.length, 1, `${g.join(' ')} → ${stems.join(' ')}`);
  const stem = createStemmer('pl');
  t.not(stem('stopa'), stem('stopień'), 'different words stay apart');
});

t.test('Polish: a soft n meets its spelling before a vowel (ń / ni-)', async (t) => {
  for (const { g, stems } of conflates('pl', [
    ['koń', 'konia', 'koniem', 'koniu'],
    ['dłoń', 'dłoni', 'dłonią'],
    ['pytań', 'pytania', 'pytaniu'],
    // A city in the keyword's nominative and in the page's locative ("w Lubaniu").
    ['lubań', 'lubaniu', 'lubania'],
  ]))
    t.equal(stems.length, 1, `${g.join(' ')} → ${stems.join(' ')}`);
  const stem = createStemmer('pl');
  t.not(stem('koń'), stem('kot'), 'different words stay apart');
  t.equal(stem('dni'), 'dni', 'a stem of three letters keeps its i');
});

t.test('Polish: the instrumental after k and g meets the other cases (domku / domkiem)', async (t) => {
  for (const { g, stems } of conflates('pl', [
    ['domku', 'domkiem', 'domki'],
    ['roku', 'rokiem'],
    ['pługa', 'pługiem'],
  ]))
    t.equal(stems.length, 1, `${g.join(' ')} → ${stems.join(' ')}`);
});

t.test('Polish: a fleeting e meets the forms without it (pędzel / pędzla, deska / desek)', async (t) => {
  for (const { g, stems } of conflates('pl', [
    ['pędzel', 'pędzla', 'pędzle', 'pędzlem'],
    ['domek', 'domku', 'domków'],
    ['palec', 'palca'],
    ['sweter', 'swetra'],
    ['deska', 'desek'],
    ['krzesło', 'krzeseł'],
    // A stem that keeps its e in every form loses it in every form alike.
    ['hotel', 'hotelu', 'hotele', 'hoteli'],
  ]))
    t.equal(stems.length, 1, `${g.join(' ')} → ${stems.join(' ')}`);
  const stem = createStemmer('pl');
  t.not(stem('pies'), stem('pas'), 'an e after a vowel is no fleeting e');
  t.equal(stem('baterie'), 'bater', 'the plural of a noun in -ia keeps its e');
});

t.test('German: Snowball German', async (t) => {
  for (const { g, stems } of conflates('de', [
    ['balkonkraftwerk', 'balkonkraftwerke', 'balkonkraftwerks', 'balkonkraftwerken'],
    ['anmeldung', 'anmeldungen'],
    ['wechselrichter', 'wechselrichters', 'wechselrichtern'],
    ['leistung', 'leistungen'],
    ['netzbetreiber', 'netzbetreibers', 'netzbetreibern'],
  ]))
    t.equal(stems.length, 1, `${g.join(' ')} → ${stems.join(' ')}`);
  const stem = createStemmer('de');
  t.not(stem('wechselrichter'), stem('wechseln'), 'a compound is not cut to its first part');
  t.equal(stem('größe'), stem('grösse'), 'ß and ss');
});

t.test('English: Porter; numbers are left alone', async (t) => {
  const stem = createStemmer('en');
  t.equal(stem('machines'), stem('machine'));
  t.equal(stem('descaling'), stem('descale'));
  t.equal(createStemmer('pl')('2027'), '2027');
});
