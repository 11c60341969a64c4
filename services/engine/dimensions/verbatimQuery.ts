import type { Finding, ScoringContext } from '../context.ts';
import { count, t } from '../labels.ts';
import type { Doc } from '../types.ts';
import { pastedQuery } from './gaming.ts';
import { containsPhrase, excerpt, finding, sectionName, unique } from './helpers.ts';

/**
 * The query pasted into sentences as it is typed into a search box: "przedstawimy pompa ciepła
 * opinie", "in unserem Luftpumpe Test". Where the language puts the intent word after the thing's
 * name only in a search (lexicon `searchOnly`), such a sentence is broken prose written for the
 * scorer, and only the writer can say it as the language says it. An author task on the first such
 * sentence that says something (BEFORE = AFTER), quoting how often the page does it (blind
 * reviews: the stuffing an editor saw first, which no change targeted).
 */

/** From this many sentences the pasted query is the page's defect, not one sentence's. */
const PAGE_WIDE_SENTENCES = 3;

export const verbatimQueryTask = (doc: Doc, ctx: ScoringContext, cut: (text: string) => boolean): Finding | null => {
  const { kw, lang, lex } = ctx;
  const words = kw.text.toLowerCase().split(/\s+/).filter(Boolean);
  // The intent word stands after the name ("… opinie", "… Test"), and a name stands before it.
  const intent = words[words.length - 1]!;
  if (words.length < 2 || !Object.hasOwn(lex.searchOnly, intent)) return null;
  const hits = pastedQuery(doc, kw.text);
  // The clearest case first: the query with the sentence going on after it ("… opinie w sieci
  // pokazują"), not at its end, where a sentence may speak of the search itself.
  const goesOn = (text: string) => {
    const low = text.toLowerCase();
    return /^\s+\p{L}/u.test(low.slice(low.indexOf(kw.text.toLowerCase()) + kw.text.length));
  };
  // A throat-clearing sentence ("In this article …") or one another finding cuts is not rewritten.
  const said = hits.filter((s) => !cut(s.text) && containsPhrase(s.text.toLowerCase(), lex.throatClearing) === null);
  const first = said.find((s) => goesOn(s.text)) ?? said[0];
  if (!first || !unique(doc.content, first.text)) return null;
  const n = hits.length;
  const q = kw.text;
  const saidAs = lex.searchOnly[intent];
  return finding({
    kind: 'stuffingVerbatim',
    subject: q,
    pageWide: n >= PAGE_WIDE_SENTENCES,
    title: t(
      lang,
      'Write the query as a sentence says it',
      'Wpleć frazę w zdanie poprawną polszczyzną',
      'Das Keyword so schreiben, wie man spricht',
    ),
    problem: t(
      lang,
      `"${q}" stands in ${count('en', n, ['sentence', 'sentences'], ['', '', ''])} as it is typed into a search box, e.g. "${excerpt(first.text, 60)}".`,
      `„${q}” stoi w ${count('pl', n, ['', ''], ['zdaniu', 'zdaniach', 'zdaniach'])} tak, jak wpisuje się je w wyszukiwarkę, np. „${excerpt(first.text, 60)}”.`,
      `„${q}“ steht in ${n} ${n === 1 ? 'Satz' : 'Sätzen'} so, wie man es ins Suchfeld tippt, z. B. „${excerpt(first.text, 60)}“.`,
    ),
    suggestion: t(
      lang,
      `Rewrite this sentence as it is said, not as it is searched: "${q}" in the middle of a sentence reads as keyword stuffing. The page does it ${n === 1 ? 'once' : `${n} times`}; change each of them.`,
      `Przepisz to zdanie tak, jak się mówi, a nie jak się wyszukuje: „${q}” w środku zdania czytelnik odbiera jako upychanie frazy (po polsku np. „${saidAs}”). Strona robi tak ${count('pl', n, ['', ''], ['raz', 'razy', 'razy'])}; popraw każde z tych miejsc.`,
      `Schreiben Sie diesen Satz so, wie man spricht, nicht wie man sucht: „${q}“ mitten im Satz liest sich als Keyword-Stuffing (etwa „${saidAs}“). Die Seite tut das ${n === 1 ? 'einmal' : `${n}-mal`}; ändern Sie jede dieser Stellen.`,
    ),
    section: sectionName(doc, first.section),
    sectionIndex: first.section,
    actionType: 'replace',
    severity: 0.6,
    figure: t(
      lang,
      `${n} ${n === 1 ? 'time' : 'times'}`,
      count('pl', n, ['', ''], ['raz', 'razy', 'razy']),
      `${n}-mal`,
    ),
    change: { kind: 'replace', before: first.text, after: first.text },
  });
};
