import t from 'tap';
import { loadCorpusA, loadHalf, type Topic } from '../../eval/corpus.ts';
import { scoreOnly, strongArticles, type GeoArticle } from '../../eval/geo.ts';

/**
 * Dimension failures (issue 24, item 3), over the tuning half and corpus-a (never the held-out half):
 * a keyphrase whose only content word is the subject does not trip the stuffing gate on a natural
 * strong article; a year in the keyword is not the intro's value; a page of "they" that never
 * names its subject does not score high on chunk; a poor page in a small SERP that includes it
 * does not set its own tfidf targets.
 */

const topics: Topic[] = [...loadHalf('tuning'), ...loadCorpusA()];
const dim = (s: ReturnType<typeof scoreOnly>, id: string) => s.outcomes.find((o) => o.id === id)!;
const asArticle = (
  tp: Topic,
  content: string,
  keyword = tp.keyword,
  serp: GeoArticle['serp'] = tp.serp,
): GeoArticle => ({
  id: tp.id,
  language: tp.language,
  keyword,
  content,
  format: 'markdown',
  serp,
});
const lead: Record<string, string> = { en: 'what is a', pl: 'co to jest', de: 'was ist' };

t.test('a lone subject noun as the keyphrase does not trip the density gate on a strong article', async (t) => {
  for (const tp of topics) {
    const head = tp.headNoun.split('|')[0]!;
    const s = scoreOnly(asArticle(tp, tp.strong, `${lead[tp.language]} ${head}`, null), tp.strong);
    t.equal(dim(s, 'density').cap, null, `${tp.id}: "${head}" ${s.keywordDensity.toFixed(2)}%`);
  }
});

t.test('a year inside the keyword is not a value in the intro', async (t) => {
  for (const a of strongArticles()) {
    // The intro's own values removed; the keyword, with a year, named at the start.
    const body = a.content.replace(/\p{N}/gu, '');
    const withYear = `${a.keyword} 2031`;
    const content = body.replace(/\n\n/, `\n\n${withYear[0]!.toUpperCase()}${withYear.slice(1)} is covered here.\n\n`);
    if (a.format !== 'markdown') continue;
    const yearKw = dim(scoreOnly({ ...a, serp: null, keyword: withYear }, content), 'bluf').summary;
    t.notMatch(yearKw, /Intro 4\/4|Wstęp 4\/4/, `${a.id}: ${yearKw}`);
  }
});

t.test('a page of pronouns that never names its subject does not score high on chunk', async (t) => {
  for (const tp of topics) {
    const words = tp.keyword
      .toLowerCase()
      .split(/\s+/)
      .filter((w) => w.length > 2);
    // Each keyword word by its first letters, so inflected forms go too ("zamków", "zamek").
    const stemOf = (w: string) => w.slice(0, Math.max(3, w.length - 3)).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    const drop = new RegExp(`(?<!\\p{L})(?:${words.map(stemOf).join('|')})\\p{L}*`, 'giu');
    // One passage of prose: headings, lists and tables gone, the subject's words replaced by "these".
    const prose = tp.strong
      .split(/\n\s*\n/)
      .filter((b) => /^\s*\p{L}/u.test(b) && !/^\s*(#|[-*|>]|\d+\.)/.test(b))
      .map((b) =>
        b
          .replace(drop, 'these')
          .replace(
            /(^|[.!?]\s+)(\p{Lu})/gu,
            (_, p: string, c: string) => `${p}${{ en: 'They', pl: 'Oni', de: 'Sie' }[tp.language]} ${c.toLowerCase()}`,
          ),
      )
      .join('\n\n');
    const s = scoreOnly(asArticle(tp, prose, tp.keyword, null), prose);
    t.ok(dim(s, 'chunk').score <= 7, `${tp.id}: chunk ${dim(s, 'chunk').score}`);
  }
});

t.test('a small SERP that includes the audited poor page does not reward its own words', async (t) => {
  let held = 0;
  for (const tp of topics) {
    const others = tp.serp.competitors.filter((c) => c.text !== tp.poor).slice(0, 2);
    const without = { ...tp.serp, competitors: others };
    // The same SERP with the audited page in it, under another URL (a syndicated copy).
    const withSelf = {
      ...tp.serp,
      competitors: [{ url: 'https://example.org/copy', title: '', text: tp.poor }, ...others],
    };
    const a = dim(scoreOnly(asArticle(tp, tp.poor, tp.keyword, without), tp.poor), 'tfidf').score;
    const b = dim(scoreOnly(asArticle(tp, tp.poor, tp.keyword, withSelf), tp.poor), 'tfidf').score;
    if (b <= a) held++;
    else t.comment(`${tp.id}: poor page's tfidf ${b} with itself in the SERP, ${a} without`);
    t.ok(b <= a + 1, `${tp.id}: ${b} with itself, ${a} without`);
  }
  t.ok(held / topics.length >= 0.9, `not raised by its own presence: ${held}/${topics.length}`);
});

t.test('byline, credentials and dates are found wherever the page puts them', async (t) => {
  // A long paragraph added above the byline pushes it out of the page's first 600 characters.
  const note: Record<string, string> = {
    en: 'Editor’s note: this guide was reviewed again this season; readers asked us to add more detail to several sections, to make the steps easier to follow and to explain the choices we made along the way, so the sections below were expanded and reorganised. ',
    pl: 'Od redakcji: ten poradnik został w tym sezonie ponownie przejrzany; czytelnicy prosili o więcej szczegółów w kilku sekcjach, o łatwiejsze do wykonania kroki i o wyjaśnienie wyborów, których dokonaliśmy, dlatego poniższe sekcje rozbudowaliśmy i uporządkowaliśmy. ',
    de: 'Hinweis der Redaktion: Dieser Ratgeber wurde in dieser Saison erneut geprüft; Leserinnen und Leser baten um mehr Details in mehreren Abschnitten, um leichter nachvollziehbare Schritte und um eine Erklärung unserer Entscheidungen, deshalb haben wir die Abschnitte erweitert. ',
  };
  for (const a of strongArticles().filter((x) => x.format === 'markdown')) {
    const moved = a.content.replace(/^(#[^\n]*\n)/, `$1\n${note[a.language]!.repeat(4).trim()}\n`);
    const before = scoreOnly({ ...a, serp: null }, a.content).eeat;
    const after = scoreOnly({ ...a, serp: null }, moved).eeat;
    t.ok(after.expertise >= before.expertise, `${a.id}: expertise ${before.expertise} → ${after.expertise}`);
    t.ok(after.trust >= before.trust, `${a.id}: trust ${before.trust} → ${after.trust}`);
    t.ok(after.experience >= before.experience, `${a.id}: experience ${before.experience} → ${after.experience}`);
  }
});
