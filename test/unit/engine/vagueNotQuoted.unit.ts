/**
 * eav's "replace a vague claim with a value" points at the writer's own sentences, never at someone
 * else's words: a customer's review or a quotation cannot take the writer's number (a product
 * page's testimonial, "My only gripe: …" – a customer, was cited as a vague claim).
 */
import t, { type Test } from 'tap';
import { scoreDoc } from '../../../services/engine/cqs.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';

const vagueOf = (content: string, keyword: string) => {
  const p = prepareDocument({ content, url: null, keyword, format: 'markdown' });
  const scored = scoreDoc(p.doc, { an: p.an, lex: p.lex, lang: p.language, kw: p.kw, bench: null, selfShingles: null });
  return scored.outcomes
    .find((o) => o.id === 'eav')!
    .findings.filter((f) => f.kind === 'vague')
    .map((f) => f.problem);
};

/** The vague claims named on a page: not the quoted one, still the writer's own. */
const namesOnlyTheWriters = (t: Test, content: string, keyword: string, quoted: string, own: string) => {
  const named = vagueOf(content, keyword);
  t.notOk(
    named.some((p) => p.includes(quoted)),
    `the quoted words are left alone: ${JSON.stringify(named)}`,
  );
  t.ok(
    named.some((p) => p.includes(own)),
    "the writer's own vague sentence is still named",
  );
};

t.test('a quoted review or a dash-opened quotation is no vague claim of the writer', async (t) => {
  namesOnlyTheWriters(
    t,
    '# French press\n\nA French press brews coffee by steeping grounds in hot water for four minutes.\n\n' +
      '"The coffee is great and it stays hot for a long time on my desk," – Marcus T., Bristol ★★★★☆\n\n' +
      'The plunger takes a long time to clean after every brew in the kitchen.',
    'french press',
    'stays hot',
    'plunger',
  );
  namesOnlyTheWriters(
    t,
    '# Kocioł żeliwny\n\nKocioł żeliwny grzeje dom zimą i pracuje na węglu lub drewnie.\n\n' +
      '– Kocioł grzeje szybko i długo trzyma ciepło w całym domu – mówi pan Jan z Radomia.\n\n' +
      'Rozpalanie w kotle trwa długo w chłodne poranki przez całą zimę.',
    'kocioł żeliwny',
    'trzyma ciepło',
    'Rozpalanie',
  );
});
