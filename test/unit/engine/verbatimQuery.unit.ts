/**
 * The query pasted into sentences as typed into a search box ("suszarka do włosów opinie pokazują
 * …", "unser Rasenmäher Test zeigt …") is an author task on such a sentence with how often the page
 * does it; never where the page says it as the language does, quotes it as a search, or writes
 * English, which puts "reviews" after the noun in prose too. Texts written for this test.
 */
import t from 'tap';
import { auditContent } from '../../../services/engine/audit.ts';

const tasks = (content: string, keyword: string, language: string) =>
  auditContent({ content, url: null, keyword, language, benchmark: null }).recommendations.filter((r) =>
    /^density: (the query pasted|fraza wklejona|das Keyword so in)/u.test(r.evidence?.rule ?? ''),
  );

const plFacts = [
  'Model Aero 3 kosztuje 199 zł, waży 480 g i ma trzy stopnie temperatury.',
  'Model Vento kosztuje 149 zł i ma zimny nawiew, który utrwala fryzurę.',
  'Jonizacja zmniejsza puszenie się włosów, ale nie zastąpi odżywki.',
  'Koncentrator kieruje strumień powietrza na szczotkę i przyspiesza modelowanie.',
  'Dyfuzor rozprasza powietrze i przydaje się przy kręconych włosach.',
  'Filtr z tyłu obudowy trzeba czyścić raz w miesiącu, bo kurz obniża moc.',
  'Przewód o długości 2,5 m pozwala suszyć włosy z dala od gniazdka.',
  'Składana rączka ułatwia zabranie urządzenia w podróż.',
];
const pl = (body: string) =>
  `# Suszarka do włosów – opinie\n\nSuszarka o mocy 2000 W wysuszy długie włosy w 6 minut.\n\n## Modele\n\n${plFacts.slice(0, 4).join(' ')}\n\n${body}\n\n## Wybór\n\n${plFacts.slice(4).join(' ')} Do krótkich włosów wystarczy 1200 W, do długich warto wybrać 2000 W.\n`;

t.test('the query pasted as typed: a task on the sentence, with the count', async (t) => {
  const found = tasks(
    pl(
      'W tym zestawieniu suszarka do włosów opinie pokazują, że moc to nie wszystko. Suszarka do włosów opinie chwalą też dyfuzor.',
    ),
    'suszarka do włosów opinie',
    'pl',
  );
  t.equal(found.length, 1);
  t.match(found[0]!.before, /^W tym zestawieniu suszarka do włosów opinie/);
  t.equal(found[0]!.evidence?.figure, '2 razy');
  t.ok(found[0]!.authorDataOnly, 'an author task: the writer says it in Polish');
  const de = `# Rasenmäher Test\n\nEin Akku-Mäher mit 36 V schafft 400 m² mit einer Ladung.\n\n## Ergebnisse\n\nUnser Rasenmäher Test zeigt, dass der Akku wichtiger ist als der Motor. Der Mähdorn 40 kostet 329 Euro.\n`;
  t.equal(tasks(de, 'Rasenmäher Test', 'de').length, 1, 'German');
});

t.test('no task where the page says it as the language does, quotes the search, or is English', async (t) => {
  t.same(
    tasks(
      pl('Opinie o suszarkach do włosów pokazują, że o wygodzie decydują waga, hałas i długość przewodu.'),
      'suszarka do włosów opinie',
      'pl',
    ),
    [],
  );
  t.same(
    tasks(
      pl('Wiele osób wpisuje w wyszukiwarkę „suszarka do włosów opinie” i trafia na rankingi bez pomiarów.'),
      'suszarka do włosów opinie',
      'pl',
    ),
    [],
    'a quoted search',
  );
  const en = `# Hair dryer reviews\n\nA 2000 W dryer dries long hair in 6 minutes.\n\n## Models\n\nOur hair dryer reviews show that power is not everything. The Aero 3 costs 39 dollars.\n`;
  t.same(tasks(en, 'hair dryer reviews', 'en'), [], 'English');
});

t.test(
  'a German noun after a noun, as a search box has it: "die Tenor Bedeutung", with the form a sentence uses',
  async (t) => {
    const de =
      '# Tenor: Bedeutung\n\nDer Tenor ist die hohe Männerstimme und, in einem Urteil, sein Entscheidungssatz.\n\n' +
      '## Musik\n\nIm Chor singt der Tenor über dem Bass; sein Umfang reicht etwa von c bis a¹. ' +
      'Die Tenor Bedeutung in der Musik kommt vom Halten der Melodie im Mittelalter.\n\n' +
      '## Recht\n\nIm Urteil ist der Tenor die Entscheidungsformel, die vor den Gründen steht, etwa „Die Klage wird abgewiesen“.\n';
    const found = tasks(de, 'tenor bedeutung', 'de');
    t.equal(found.length, 1, 'a task on the pasted sentence');
    t.match(found[0]!.task ?? '', /„die Bedeutung von …“/u, 'shown the form for "Bedeutung", not a test’s');
    const said = tasks(
      de.replace('Die Tenor Bedeutung in der Musik', 'Die Bedeutung von Tenor in der Musik'),
      'tenor bedeutung',
      'de',
    );
    t.equal(said.length, 0, 'none where the page says it as German does');
  },
);
