/**
 * Quoted speech as Polish and German news write it (issue 24, item 2): a quotation the dash opens
 * runs over several sentences to the closing dash that names the speaker, in the past tense too
 * ("– mówił radny X"). Before, only the last sentence counted (or none, in the past tense), and the
 * rest read as the writer's own prose. And a generic paragraph's inclusive "we" in a relative
 * clause ("dziedzictwo, które otrzymaliśmy") is no report of the writer's own doing, so it can be
 * filler like any other platitude.
 */
import t from 'tap';
import { evidenceOf } from '../../../services/engine/evidence.ts';
import { reportsOwnDoing } from '../../../services/engine/firstHand.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';

const prep = (content: string, keyword: string) => prepareDocument({ content, url: null, keyword, format: 'markdown' });
const quotes = (content: string, keyword: string) =>
  [...evidenceOf(prep(content, keyword).doc).quotes].map((s) => s.text);

t.test('a dash-opened quotation of several sentences is quoted speech to its speaker (pl, de)', async (t) => {
  const pl = quotes(
    '# Podwyżka cen biletów\n\nMuzeum podnosi ceny od marca.\n\n' +
      '– Ceny rosną w całej Europie. Wyższe ceny łatwiej przyjąć, jeśli rośnie razem z nimi oferta – mówi prof. Anna Kowal, ekonomistka turystyki.\n\n' +
      'Bilety ulgowe zostają bez zmian.',
    'podwyżka cen biletów',
  );
  t.ok(
    pl.some((q) => q.startsWith('– Ceny rosną')),
    `the dash-opened first sentence is the speaker's: ${JSON.stringify(pl)}`,
  );
  t.ok(
    pl.some((q) => q.startsWith('Wyższe ceny')),
    'and the sentence that names the speaker',
  );
  t.notOk(
    pl.some((q) => q.startsWith('Muzeum') || q.startsWith('Bilety')),
    "the writer's own sentences stay the writer's",
  );
  const de = quotes(
    '# Preise im Museum\n\n– Die Preise steigen überall. Ein besseres Angebot macht sie leichter – sagt Anna Keller vom Museumsverband.',
    'preise im museum',
  );
  t.equal(de.length, 2, 'German: both sentences');
  const none = quotes(
    '# Podwyżka cen biletów\n\n– Ceny rosną w całej Europie. Oferta też musi rosnąć – i to szybko, bo sezon jest krótki.',
    'podwyżka cen biletów',
  );
  t.same(none, [], 'a closing dash without a speaker is no quotation');
});

t.test('the past tense of a Polish speech verb attributes as the present does', async (t) => {
  const past = quotes(
    '# Budżet miasta\n\nRada przyjęła budżet.\n\n– Nie jestem przeciwko inwestycji. Ale tych pieniędzy mieszkańcom nie wytłumaczymy – mówił podczas sesji radny Jan Nowak.',
    'budżet miasta',
  );
  t.equal(past.length, 2, `"mówił" names the speaker: ${JSON.stringify(past)}`);
  const added = quotes(
    '# Budżet miasta\n\nRada przyjęła budżet na przyszły rok większością głosów.\n\n– Remonty szkół poczekają jeszcze jeden rok – dodała skarbnik miasta Anna Wiśniewska.',
    'budżet miasta',
  );
  t.equal(added.length, 1, '"dodała" too');
});

t.test("a first-person verb in a relative clause is not the writer's account", async (t) => {
  t.notOk(
    reportsOwnDoing('Warto pamiętać, że dziedzictwo, które otrzymaliśmy, wymaga troski nas wszystkich.', 'pl'),
    'pl: "które otrzymaliśmy"',
  );
  t.notOk(
    reportsOwnDoing('The heritage that we received asks for care from all of us.', 'en'),
    'en: "that we received"',
  );
  t.ok(reportsOwnDoing('Kupiliśmy sześć zamków i zapłaciliśmy za montaż.', 'pl'), 'pl: the writer buying and paying');
  t.ok(reportsOwnDoing('We paid for six locks and had them fitted.', 'en'), 'en: the writer paying');
  t.ok(
    reportsOwnDoing('Zamek, który wymieniłem, kupiłem w sklepie obok.', 'pl'),
    'an account beside the relative clause still counts',
  );
});
