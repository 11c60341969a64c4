/**
 * Keyword auto-detection and the central entity (issue 24, item 4) on pages written for this test
 * (no corpus text): how-to titles ("How to", "Jak", "Wie"), listicles and product pages in
 * English, Polish and German. The detected keyword must hold the title's head noun, and the
 * central entity must be the head noun's span, not the keyword's other nouns.
 */
import t from 'tap';
import { holdsHead } from '../../../services/engine/headNoun.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';

const page = (title: string, body: string[]) => `# ${title}\n\n${body.join('\n\n')}\n`;

interface Case {
  kind: string;
  content: string;
  head: RegExp;
  entity?: RegExp;
}

const CASES: Case[] = [
  {
    kind: 'en how-to',
    content: page('How to Repaint a Bicycle Frame in One Weekend (Beginner Guide)', [
      'Repainting a bicycle frame takes two days: one to strip the old paint, one to spray the new coats.',
      '## Strip the frame',
      'Remove the wheels, the chain and the cranks, then sand the frame down to bare metal.',
      'A stripped frame shows every dent, so fill small marks with filler before you paint.',
      '## Spray the frame',
      'Hang the frame from a hook and spray three thin coats of primer, then three coats of colour.',
      'Let the frame cure for a day before you fit the parts again.',
    ]),
    head: /\bframe\b/,
    entity: /^(bicycle )?frame$/,
  },
  {
    kind: 'pl how-to',
    content: page('Jak odkamienić czajnik elektryczny – proste sposoby', [
      'Czajnik elektryczny odkamienisz kwaskiem cytrynowym w 20 minut, bez szorowania.',
      '## Kwasek cytrynowy',
      'Wsyp dwie łyżki kwasku do czajnika, zalej wodą do połowy i zagotuj.',
      'Po pół godzinie wylej roztwór, a czajnik przepłucz dwa razy czystą wodą.',
      '## Ocet',
      'Ocet także rozpuszcza kamień, ale czajnik trzeba potem płukać dłużej, bo zapach zostaje.',
      'Kamień w czajniku osadza się szybciej, gdy woda w kranie jest twarda.',
    ]),
    head: /czajnik/,
    entity: /^czajnik/,
  },
  {
    kind: 'de how-to',
    content: page('Wie man einen Fahrradschlauch flickt: Anleitung', [
      'Einen Fahrradschlauch flickt man in zehn Minuten mit Flicken, Kleber und Schleifpapier.',
      '## Loch finden',
      'Pumpen Sie den Fahrradschlauch auf und halten Sie ihn in Wasser, bis Blasen das Loch zeigen.',
      'Markieren Sie die Stelle am Fahrradschlauch mit Kreide.',
      '## Flicken aufkleben',
      'Rauen Sie den Fahrradschlauch um das Loch an, tragen Sie Kleber auf und warten Sie drei Minuten.',
      'Drücken Sie den Flicken fest und legen Sie den Fahrradschlauch zurück in den Mantel.',
    ]),
    head: /fahrradschlauch/,
  },
  {
    kind: 'en listicle',
    content: page('10 Best Hiking Backpacks for Long Trails, Tested Over 500 Miles', [
      'The best hiking backpacks for long trails carry 40 to 60 litres and weigh under 1.5 kg.',
      '## How we tested the backpacks',
      'We carried each backpack for 50 miles with a 12 kg load and weighed every backpack empty.',
      '## 1. A frameless backpack',
      'This backpack weighs 900 g and suits hikers who pack light.',
      '## 2. A framed backpack',
      'A framed backpack spreads a heavy load onto the hips, so long days hurt less.',
      'Every backpack on this list has a rain cover and hip-belt pockets.',
    ]),
    head: /backpack/,
  },
  {
    kind: 'pl listicle',
    content: page('7 sposobów na suche powietrze w mieszkaniu', [
      'Suche powietrze w mieszkaniu zimą ma wilgotność poniżej 35%, a to wysusza skórę i oczy.',
      '## 1. Nawilżacz',
      'Nawilżacz podnosi wilgotność powietrza o 10–15 punktów w jednym pokoju.',
      '## 2. Rośliny',
      'Rośliny oddają wodę do powietrza, ale potrzeba ich kilku na pokój.',
      '## 3. Wietrzenie',
      'Krótkie wietrzenie wymienia powietrze bez wychładzania ścian.',
      'Suche powietrze łatwiej znieść, gdy temperatura w pokoju nie przekracza 21 stopni.',
    ]),
    head: /powietrz/,
  },
  {
    kind: 'de listicle',
    content: page('Die 5 besten Zimmerpflanzen für dunkle Räume', [
      'Diese Zimmerpflanzen wachsen auch in dunklen Räumen mit weniger als 500 Lux.',
      '## 1. Schusterpalme',
      'Die Schusterpalme ist eine der robustesten Zimmerpflanzen und verträgt Schatten.',
      '## 2. Glücksfeder',
      'Die Glücksfeder speichert Wasser und gehört zu den genügsamen Zimmerpflanzen.',
      '## 3. Einblatt',
      'Das Einblatt zeigt, wann Zimmerpflanzen Wasser brauchen: Die Blätter hängen.',
      'Alle Zimmerpflanzen dieser Liste brauchen nur alle zwei Wochen Wasser.',
    ]),
    head: /zimmerpflanzen/,
  },
  {
    kind: 'en product',
    content: page('Norvik Aero 3 Electric Toothbrush – White', [
      'The Norvik Aero 3 is an electric toothbrush with three modes and a battery that lasts 30 days.',
      '## Specifications',
      'The toothbrush weighs 110 g, charges by USB-C in four hours and ships with two brush heads.',
      '## In the box',
      'You get the toothbrush, a travel case and a charging cable.',
      'The electric toothbrush carries a two-year warranty.',
    ]),
    head: /toothbrush/,
    entity: /toothbrush/,
  },
  {
    kind: 'pl product',
    content: page('Odkurzacz bezprzewodowy Ventra X7 – biały', [
      'Ventra X7 to odkurzacz bezprzewodowy o mocy ssania 150 AW i czasie pracy do 45 minut.',
      '## Dane techniczne',
      'Odkurzacz waży 1,6 kg, a pojemnik na kurz mieści 0,5 l.',
      '## W zestawie',
      'Do odkurzacza dołączono ssawkę szczelinową, szczotkę do mebli i stację dokującą.',
      'Odkurzacz bezprzewodowy Ventra X7 ma 24 miesiące gwarancji.',
    ]),
    head: /odkurzacz/,
  },
  {
    kind: 'de product',
    content: page('Halvor K2 Kaffeemühle aus Edelstahl', [
      'Die Halvor K2 ist eine elektrische Kaffeemühle mit Kegelmahlwerk und 40 Mahlstufen.',
      '## Technische Daten',
      'Die Kaffeemühle fasst 250 g Bohnen und mahlt 20 g in zwölf Sekunden.',
      '## Lieferumfang',
      'Zur Kaffeemühle gehören ein Pinsel und ein Auffangbehälter aus Edelstahl.',
      'Die Kaffeemühle hat zwei Jahre Garantie.',
    ]),
    head: /kaffeemühle/,
  },
  // A place after the subject qualifies it: the head stands before it, however often the page
  // repeats a modifier or the place (English puts the head last, Polish and German first).
  {
    kind: 'en local, a modifier repeated more than the head',
    content: page('Urgent Locksmith in Hartfield – Fixed Prices', [
      'Our urgent call-outs reach most of Hartfield within 40 minutes, day and night.',
      'Urgent jobs cost a fixed 95 pounds, parts extra, and we quote before we start.',
      'For urgent lock-outs we open the door without damage in most cases.',
      'Urgent repairs to broken cylinders are done on the spot from the van.',
      'Call the urgent line and a van is on the way at once.',
    ]),
    head: /locksmith/,
  },
  {
    kind: 'de news, the place repeated more than the subject',
    content: page('Sturm im Landkreis Ostwalde: Dächer abgedeckt, Straßen gesperrt', [
      'Im Landkreis Ostwalde hat das Unwetter in der Nacht zum Montag mehrere Dächer abgedeckt.',
      'Der Landkreis meldete 40 Einsätze der Feuerwehr, verletzt wurde niemand.',
      'Im Norden des Landkreises blieben zwei Straßen bis zum Mittag gesperrt.',
      'Der Sturm erreichte in Böen 110 Kilometer pro Stunde, teilte der Wetterdienst mit.',
      'Die Kreisverwaltung von Ostwalde rechnet mit Schäden in Millionenhöhe, sagte der Landrat.',
    ]),
    head: /sturm/,
  },
  // What follows a preposition of purpose says whom the subject serves: the head is before it,
  // however often the page repeats the purpose.
  {
    kind: 'en listicle, the purpose repeated more than the head',
    content: page('The Best Sewing Machine for Quilting and Denim: 6 Models Sewn With', [
      'For quilting, a machine needs a wide throat and a walking foot; for denim, a strong motor.',
      'We sewed quilting samples and denim hems on every sewing machine for a week.',
      'The quilting stitches of the Harlow 300 stayed even through eight layers of cotton.',
      'On denim the cheaper sewing machines skipped stitches at the seams.',
      'Quilting on the Brixley Q5 was quiet, and its denim needle never bent.',
      'Quilting fans should pick the Harlow; denim sewers the Brixley.',
    ]),
    head: /sewing machine$/,
  },
  {
    kind: 'pl listicle, the purpose repeated more than the head',
    content: page('Najlepsza lampa biurkowa do pracy przy komputerze – ranking', [
      'Do pracy przy komputerze lampa biurkowa powinna świecić na biurko, a nie na ekran.',
      'Przy komputerze oczy męczą się szybciej, gdy światło jest zbyt zimne.',
      'Lampa biurkowa z regulacją barwy ustawia ciepłe światło wieczorem.',
      'Na stanowisku pracy z komputerem najlepiej sprawdza się lampa na ramieniu.',
      'Przy pracy z komputerem liczy się też brak migotania.',
    ]),
    head: /lampa/,
  },
  {
    kind: 'de, a title naming one word twice is no phrase',
    content: page('Rasenmäher Test – die besten Rasenmäher im Rasenmäher Test', [
      'Ein Rasenmäher für kleine Gärten braucht keinen Benzinmotor.',
      'Im Test mähte jeder Rasenmäher 200 Quadratmeter Rasen.',
      'Der leiseste Rasenmäher lag bei 78 Dezibel.',
      'Die Schnittbreite der Rasenmäher reichte von 32 bis 46 Zentimetern.',
    ]),
    head: /^rasenmäher$/,
  },
];

for (const c of CASES) {
  t.test(c.kind, async (t) => {
    const r = prepareDocument({ content: c.content, url: null, keyword: null });
    t.match(r.keyword.toLowerCase(), c.head, `keyword "${r.keyword}" holds the head noun`);
    t.match(r.csi.centralEntity.toLowerCase(), c.entity ?? c.head, `entity "${r.csi.centralEntity}"`);
  });
}

t.test('a supplied keyword: the entity is the head noun the page repeats, not every noun', async (t) => {
  const content = page('Descaling a kettle', [
    'Descale a kettle with citric acid: two spoons of acid, half a kettle of water, one boil.',
    'The kettle then sits for twenty minutes while the acid dissolves the scale.',
    'Rinse the kettle twice so no acid taste stays in the water.',
    'A kettle in a hard-water area needs this every month.',
    'Citric acid is sold as a powder; citric acid from the baking shelf works as well.',
  ]);
  const r = prepareDocument({ content, url: null, keyword: 'descale kettle citric acid' });
  t.equal(r.csi.centralEntity, 'kettle');
  // A phrase the page repeats whole stays whole.
  const whole = prepareDocument({ content, url: null, keyword: 'citric acid' });
  t.equal(whole.csi.centralEntity, 'citric acid');
});

t.test('a German title closing on an infinitive is a task, its verb kept last', async (t) => {
  const content = page('Seife selber sieden: Grundrezept für Anfänger', [
    'Seife selber sieden braucht Öl, Lauge und vier Wochen Geduld.',
    'Die Seife reift in einer Holzform, bis die Lauge ganz gebunden ist.',
    'Wer Seife selber siedet, trägt Handschuhe und eine Schutzbrille.',
    'Eine fertige Seife schneidet man nach zwei Tagen in Stücke.',
  ]);
  const r = prepareDocument({ content, url: null, keyword: null });
  t.equal(r.keyword, 'seife selber sieden');
  // Written as the page writes the noun ("Seife").
  t.match(r.csi.centralEntity, /^Seife/);
});

t.test('a comparison shows both sides as its entity', async (t) => {
  const content = page('Kayak vs Canoe: Which Boat Suits a Beginner?', [
    'A kayak is lighter and faster; a canoe carries more gear and a second paddler.',
    'A beginner tips a canoe less often, but a kayak is easier to steer alone.',
    'Choose the kayak for fitness trips and the canoe for family trips with luggage.',
  ]);
  const r = prepareDocument({ content, url: null, keyword: 'kayak vs canoe' });
  t.equal(r.csi.centralEntity, 'kayak vs canoe');
  t.match(r.csi.centralSearchIntent, /kayak vs canoe/);
});

t.test('a how-to title keeps its verb and drops what follows the head', async (t) => {
  const r = prepareDocument({ content: CASES[0]?.content ?? '', url: null, keyword: null });
  t.equal(r.keyword, 'how to repaint a bicycle frame');
  t.match(r.csi.centralSearchIntent, /^instructional: how to repaint/);
});

t.test('a title opening on an imperative names a task (en, pl, de)', async (t) => {
  const en = page('Clean Your Oven in 30 Minutes Without Harsh Chemicals', [
    'The easiest way to clean an oven is a paste of baking soda and water left overnight.',
    '## Make the paste',
    'Mix half a cup of baking soda with three tablespoons of water and spread it over the oven walls.',
    'Leave the oven closed for twelve hours so the paste softens the grease.',
    '## Wipe it out',
    'Wipe the oven with a damp cloth, then spray vinegar where the paste remains.',
  ]);
  const pl = page('Wymień baterię w kuchni w 30 minut', [
    'Żeby wymienić baterię kuchenną, zakręć zawory pod zlewem i odkręć węże.',
    '## Demontaż',
    'Starą baterię odkręcisz kluczem nasadowym, trzymając nakrętkę od spodu zlewu.',
    'Baterię wyjmij razem z uszczelką i wyczyść blat.',
    '## Montaż',
    'Nową baterię przykręć do blatu i sprawdź, czy bateria nie cieknie po odkręceniu wody.',
  ]);
  const de = page('Wechseln Sie den Wasserhahn in 30 Minuten', [
    'Einen Wasserhahn wechseln Sie mit einem Maulschlüssel und etwas Dichtband.',
    '## Ausbau',
    'Drehen Sie die Eckventile zu und lösen Sie die Schläuche vom alten Wasserhahn.',
    'Den alten Wasserhahn lösen Sie von unten mit der Befestigungsmutter.',
    '## Einbau',
    'Setzen Sie den neuen Wasserhahn ein und prüfen Sie, ob der Wasserhahn dicht ist.',
  ]);
  const [e, p, d] = [en, pl, de].map((content) => prepareDocument({ content, url: null, keyword: null }));
  t.equal(e!.keyword, 'clean your oven', 'en: the verb kept, what follows the head cut');
  t.equal(e!.csi.centralEntity, 'oven');
  t.equal(p!.keyword, 'wymienić baterię', 'pl: the imperative typed as the infinitive the page uses');
  t.equal(p!.kw.intent, 'instructional');
  t.equal(d!.keyword, 'wasserhahn wechseln', 'de: object, then verb');
  const noun = page('Paint Colours for Small Rooms', [
    'Paint colours change how big a room feels: pale colours push the walls back.',
    'Pick paint colours by the light a room gets, not by the chart.',
    'Warm paint colours suit north-facing rooms, cool ones south-facing rooms.',
  ]);
  t.not(
    prepareDocument({ content: noun, url: null, keyword: null }).kw.intent,
    'instructional',
    'a noun opening is no imperative',
  );
  const place = page('Leeds Opens Its First Night Library in the City Centre', [
    'The night library opened on Monday, and late trains to Leeds now bring readers from the suburbs.',
    'The night library lends books until 2 am and keeps a reading room open all night.',
    'Staff at the night library expect 300 visitors a night in the first month.',
  ]);
  const placeKw = prepareDocument({ content: place, url: null, keyword: null }).keyword;
  t.notMatch(placeKw, /^leeds opens/, `a place after "to" is no verb: "${placeKw}"`);
});

t.test('a German compound holds its head noun as its last part', async (t) => {
  t.ok(holdsHead(['wasserhahn', 'wechseln'], 'hahn', 'de'));
  t.ok(holdsHead(['sicherheits-profilzylind', 'kauf'], 'zylind', 'de'));
  t.notOk(holdsHead(['hahnenkamm'], 'hahn', 'de'), 'the first part is no head');
  t.notOk(holdsHead(['dishwasher'], 'washer', 'en'), 'only where compounds are written closed');
});
