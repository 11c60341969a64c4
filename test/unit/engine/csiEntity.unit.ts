/**
 * The central entity of a supplied keyword that names a task without a marker (keywordVerb.ts):
 * the verb the page shows is the predicate, the entity is the head noun phrase. Pages written for
 * this test, in English, Polish and German; a noun phrase whose first word is said after "to" now
 * and then stays whole.
 */
import t from 'tap';
import { prepareDocument } from '../../../services/engine/prepare.ts';

const page = (title: string, body: string[]) => `# ${title}\n\n${body.join('\n\n')}\n`;
const csiOf = (content: string, keyword: string, language: 'en' | 'pl' | 'de') =>
  prepareDocument({ content, url: null, keyword, language });

t.test('English: a verb first is the predicate when the page uses it as a verb', async (t) => {
  const content = page('Oiling a squeaky door hinge', [
    'You need to oil a hinge once a year, or whenever the door starts to squeak.',
    'Lift the pin, then oil the hinge barrel with three drops of light machine oil.',
    'It is easy to oil it without taking the door off: work the door back and forth.',
    'A squeaky hinge that stays loud after you oil the pin needs a new pin.',
    'Wipe the hinge afterwards so no oil drips onto the floor.',
  ]);
  const r = csiOf(content, 'oil a door hinge', 'en');
  t.equal(r.csi.centralEntity, 'door hinge');
  t.equal(r.csi.predicate, 'oil');
  t.match(r.csi.centralSearchIntent, /^instructional: how to oil a door hinge/);
});

t.test('English: a noun phrase whose first word is also a verb stays whole', async (t) => {
  const content = page('Sourdough starter basics', [
    'A sourdough starter is flour and water that wild yeast has colonised.',
    'Feed the sourdough starter every day with equal weights of flour and water.',
    'A healthy sourdough starter doubles within six hours of a feed.',
    'Some bakers keep their sourdough starter in the fridge between bakes.',
    'Bread rises slowly when the starter is weak, so it helps to sourdough-proof overnight.',
  ]);
  const r = csiOf(content, 'sourdough starter', 'en');
  t.equal(r.csi.centralEntity, 'sourdough starter');
});

t.test('English: the entity is the head the page repeats once the verb is out', async (t) => {
  const content = page('Cleaning a grill grate', [
    'To clean a grill grate, soak it in warm water with baking soda for an hour.',
    'Scrub the grill grate with a brass brush, then rinse it with hot water.',
    'A cast-iron grate needs a thin coat of oil after you clean it.',
    'Baking soda lifts grease; baking soda also removes the smell of old fat.',
    'Dry the grate in the sun before it goes back on the grill.',
  ]);
  const r = csiOf(content, 'clean grill grate baking soda', 'en');
  t.equal(r.csi.centralEntity, 'grill grate');
  t.equal(r.csi.predicate, 'clean');
});

t.test('Polish: the infinitive is the predicate, the noun the entity', async (t) => {
  const content = page('Odkamienianie czajnika', [
    'Aby odkamienić czajnik, wlej do niego pół litra wody i dwie łyżki kwasku cytrynowego.',
    'Zagotuj wodę i zostaw czajnik na dwadzieścia minut.',
    'Wylej roztwór i przepłucz czajnik dwa razy czystą wodą.',
    'Czajnik w twardej wodzie warto odkamienić raz w miesiącu.',
  ]);
  const r = csiOf(content, 'odkamienić czajnik', 'pl');
  t.equal(r.csi.centralEntity, 'czajnik');
  t.equal(r.csi.predicate, 'odkamienić');
});

t.test('German: a last-word infinitive the page writes in lower case is the predicate', async (t) => {
  const content = page('Fahrradkette reinigen', [
    'Wer die Fahrradkette reinigen will, braucht einen Lappen und etwas Kettenöl.',
    'Die Fahrradkette wird zuerst mit dem Lappen abgewischt.',
    'Danach kann man die Fahrradkette mit einer Bürste reinigen und trocknen lassen.',
    'Eine saubere Fahrradkette hält bis zu 3000 Kilometer länger.',
  ]);
  const r = csiOf(content, 'fahrradkette reinigen', 'de');
  // Written as the page writes the noun (a German reader reads "Fahrradkette", not "fahrradkette").
  t.equal(r.csi.centralEntity, 'Fahrradkette');
  t.equal(r.csi.predicate, 'reinigen');
});

t.test('a proper noun of the keyword keeps its capital in the entity', async (t) => {
  const content = page('Hydraulik w Krakowie', [
    'Hydraulik w Krakowie przyjeżdża w ciągu godziny od zgłoszenia.',
    'Nasz hydraulik w Krakowie naprawia piony, baterie i spłuczki.',
    'Dojazd w Krakowie kosztuje 50 zł, a w Krakowie Nowej Hucie 70 zł.',
  ]);
  const r = csiOf(content, 'hydraulik Kraków', 'pl');
  t.match(r.csi.centralEntity, /Kraków|hydraulik/);
  t.notMatch(r.csi.centralEntity, /kraków/);
});
