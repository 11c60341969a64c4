import t from 'tap';
import { keywordDensity } from '../../../services/engine/dimensions/density.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';
import { scoreContent } from '../../../services/engine/audit.ts';

/**
 * A local keyword, "<service> <city>" (issue 24, item 4): the page names its city in its own
 * grammar and in capitals, not beside the service in every sentence. Made-up pages.
 */
const kwOf = (content: string, keyword: string, language: 'en' | 'pl' | 'de') =>
  prepareDocument({ content, url: null, keyword, language }).kw;

const plSalon = [
  '# Fryzjer w Lubaniu – salon przy rynku',
  'Salon przyjmuje od poniedziałku do soboty, a strzyżenie damskie kosztuje od 70 zł.',
  'Mieszkańcy Lubania umawiają wizytę telefonicznie albo przez formularz na stronie.',
  'Nasz fryzjer pracuje w zawodzie od 2011 roku i prowadzi szkolenia dla uczniów.',
  'Dojeżdżamy też do klientek spoza miasta, a parking przy salonie jest bezpłatny.',
  'W Lubaniu działamy przy ulicy Wrocławskiej, dwie minuty od przystanku.',
].join('\n\n');

t.test('a city named in the locative ("w Lubaniu") makes the keyword local, the service its entity', async (t) => {
  const kw = kwOf(plSalon, 'fryzjer lubań', 'pl');
  t.equal(kw.intent, 'local');
  t.equal(kw.entity, 'fryzjer', 'the central entity is the service, not the city');
  t.equal(kw.stems.length, 2, 'the keyphrase stays whole for the over-use gate');
});

t.test('a keyword ending in a name the page capitalises inside its sentences is local (not in German)', async (t) => {
  const enPage = [
    '# Dog grooming that fits your week',
    'Our dog groomer works from a quiet studio near the station in the centre of Bristol town.',
    'Every dog groomer here is insured, and owners across Bristol book online in two minutes.',
    'A full groom for a small dog costs £38 and takes about ninety minutes.',
  ].join('\n\n');
  t.equal(kwOf(enPage, 'dog groomer bristol', 'en').intent, 'local');
  const lower = enPage.replace(/Bristol/g, 'bristol');
  t.not(kwOf(lower, 'dog groomer bristol', 'en').intent, 'local', 'a word the page writes in lower case is no name');
  const dePage = [
    '# Schimmel im Bad',
    'Welche Arten von Schimmel im Bad wachsen, hängt von der Feuchte ab, und die Arten unterscheiden sich.',
    'Zwei Arten sind häufig, und beide Arten lassen sich mit Alkohol entfernen.',
  ].join('\n\n');
  t.not(kwOf(dePage, 'schimmel arten', 'de').intent, 'local', 'German capitalises every noun');
});

t.test('a news report keeps the place in its keyword: it is where the event happened', async (t) => {
  const report = [
    '# Floods close the ring road',
    'By Jane Doe, city desk',
    'Published 4 March 2026',
    'GLENFORD — The ring road around Glenford was closed after the river burst its banks. The council said the road will reopen on 9 March, once engineers have inspected the bridge.',
    'Police said 40 homes in Glenford were evacuated overnight, and the mayor announced an emergency fund.',
    'Residents in Glenford told reporters the water rose within an hour.',
  ].join('\n\n');
  t.not(kwOf(report, 'floods glenford', 'en').intent, 'local');
});

t.test("a sentence naming a local keyword's service is a whole use of the keyphrase, not half", async (t) => {
  const p = prepareDocument({ content: plSalon, url: null, keyword: 'fryzjer lubań', language: 'pl' });
  const local = keywordDensity(p.doc, p.kw.stems, p.an, p.kw);
  const asPhrase = keywordDensity(p.doc, p.kw.stems, p.an, { ...p.kw, wholeUse: undefined });
  t.equal(local.matches, asPhrase.matches, 'the same matches of the whole phrase');
  t.ok(local.mentions > asPhrase.mentions, `${local.mentions} > ${asPhrase.mentions}`);
  t.equal(local.uses, asPhrase.uses, 'the over-use gate counts the same uses');
});

t.test("a sentence naming a report's event by its head is a whole use; its place is stated once", async (t) => {
  const report = [
    '# Glenford ferry strike: crossings cancelled for a second day',
    'By Jane Doe, transport desk',
    'Published 4 March 2026',
    'GLENFORD — Crews walked out on Monday over pay, and every crossing run by the operators of Glenford was cancelled.',
    'The strike is the first on the route since 2019, the union said, and it will last until Thursday.',
    'Commuters queued for buses instead; the strike adds about an hour to the trip into Glenford.',
    'The operator said talks would resume on Wednesday and apologised to passengers.',
  ].join('\n\n');
  const p = prepareDocument({ content: report, url: null, keyword: 'glenford ferry strike', language: 'en' });
  t.same(p.kw.wholeUse, ['strike'], 'the event, by its head');
  const news = keywordDensity(p.doc, p.kw.stems, p.an, p.kw);
  const asPhrase = keywordDensity(p.doc, p.kw.stems, p.an, { ...p.kw, wholeUse: undefined });
  t.ok(news.mentions > asPhrase.mentions, `${news.mentions} > ${asPhrase.mentions}`);
  t.equal(news.uses, asPhrase.uses, 'the over-use gate counts the same uses');
  const card = scoreContent({ content: report, url: null, keyword: 'glenford ferry strike', language: 'en' });
  const density = card.outcomes.find((o) => o.id === 'density')!;
  t.match(density.summary, /more sentences? names? "strike"/, 'the card says what lifts the density it states');
});
