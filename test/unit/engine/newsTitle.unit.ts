import t from 'tap';
import { buildBench } from '../../../services/engine/benchmark.ts';
import { scoreDoc } from '../../../services/engine/cqs.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';
import { classifyProfile } from '../../../services/engine/profile.ts';
import type { SerpBenchmarkInput } from '../../../services/engine/types.ts';

/**
 * A page whose title calls it news is read as news, dated or not (the held-out news item of every
 * blind review since r11: undated, hearsay for sources, and offered evergreen question sections
 * about the club it reports on, rejected as wrong subject each time). Made-up pages on a town's
 * rowing club.
 */
const body = [
  'The Harwick Rowing Club is a club that has always stirred emotions among its members and beyond.',
  'As we have heard from unofficial sources, the town council may give the club a new boathouse on the river. Nobody knows yet where it would stand or what it would cost, and opinions are divided.',
  'Members comment on the plans on social media. Some are pleased, others say they have heard it all before.',
  'We will follow the story and keep you posted on every development at the Harwick Rowing Club.',
].join('\n\n');

const page = (title: string) => `# ${title}\n\n${body}`;

const competitor = (n: number) =>
  [
    `# Harwick Rowing Club ${n}`,
    'The Harwick Rowing Club was founded in 1884 and races eights and fours on the lower river.',
    'The club won the regional championship in 1998 and in 2011, both times in the men’s eight.',
    'Its boathouse holds 24 boats and the club has about 300 members, juniors included.',
  ].join('\n\n');

const serp: SerpBenchmarkInput = {
  searchVolume: 1000,
  serpOrganicCount: 10,
  paa: ['When did the Harwick Rowing Club win the regional championship?'],
  related: [],
  competitors: [1, 2, 3].map((i) => ({
    url: `http://127.0.0.1:9/r${i}.html`,
    title: `Result ${i}`,
    text: competitor(i),
  })),
};

/** The question section queryFanout offers for the unanswered PAA question, or null (a problem only). */
const questionSection = (title: string) => {
  const p = prepareDocument({ content: page(title), url: null, keyword: 'harwick rowing club', language: 'en' });
  const bench = buildBench(serp, p.doc, p.kw, p.an, p.lex);
  const scored = scoreDoc(p.doc, { an: p.an, lex: p.lex, lang: p.language, kw: p.kw, bench, selfShingles: null });
  const paa = scored.outcomes.find((o) => o.id === 'queryFanout')!.findings.find((f) => f.kind === 'paa');
  return paa ? (paa.change?.after ?? null) : undefined;
};

t.test('a news item titled as news gets no evergreen question section', async (t) => {
  t.equal(questionSection('Harwick Rowing Club – latest news: a new boathouse?'), null, 'the gap stays a problem');
  t.match(questionSection('Harwick Rowing Club: a new boathouse?'), /^## When did/, 'the same page, its title no news');
});

t.test('the title says news in each language', async (t) => {
  const profileOf = (title: string, language: 'en' | 'pl' | 'de') => {
    const p = prepareDocument({
      content: `# ${title}\n\n${body}`,
      url: null,
      keyword: 'harwick rowing club',
      language,
    });
    return classifyProfile(p.doc, p.lex);
  };
  t.equal(profileOf('Harwick Rowing Club – latest news', 'en'), 'news');
  t.equal(profileOf('Klub wioślarski Harwick – najnowsze wiadomości', 'pl'), 'news');
  t.equal(profileOf('Ruderclub Harwick: Nachrichten aus dem Verein', 'de'), 'news');
  t.not(profileOf('Newsletter templates for a rowing club', 'en'), 'news', 'a word that only starts with "news"');
});
