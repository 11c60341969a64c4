import t from 'tap';
import { buildDoc, createAnalyzer, parseContent } from '../../../services/engine/document.ts';
import { isDefinition, isProtected, nextLeansBack, type GateContext } from '../../../services/engine/grounding.ts';
import { describeKeyword } from '../../../services/engine/keyword.ts';
import { lexiconFor } from '../../../services/engine/text/lexicon.ts';

/**
 * Which sentences a change may never delete, shorten or move (issue 23, "never harm"): a figure, a
 * named source, a definition. Made-up sentences; what is not protected may still be refused by the
 * rule that proposes the change.
 */
const ctxFor = (lang: string, keyword: string): GateContext => {
  const an = createAnalyzer(lang);
  return { an, lex: lexiconFor(lang), lang, kw: describeKeyword(keyword, an), bench: null, selfShingles: null };
};
const pageOf = (lang: string, text: string) =>
  buildDoc(parseContent(text, 'text', null), text, createAnalyzer(lang), null, null);

t.test('a definition names its entity before the verb that says what it is', async (t) => {
  const en = ctxFor('en', 'what is a bond');
  t.ok(isDefinition('A bond is a loan that an investor makes to an issuer.', en));
  t.ok(isDefinition('Simply put, a bond is a loan.', en));
  t.notOk(isDefinition('There are many kinds of bonds.', en), 'it says that bonds exist');
  t.notOk(isDefinition('Is a bond a loan?', en), 'a question defines nothing');
  const pl = ctxFor('pl', 'rodzaje śrub');
  t.ok(isDefinition('Śruba zamkowa to śruba z łbem grzybkowym.', pl));
  t.notOk(isDefinition('Jest wiele rodzajów śrub.', pl), 'the verb first: "there are many kinds"');
  const de = ctxFor('de', 'was ist eine anleihe');
  t.ok(isDefinition('Eine Anleihe ist ein Kredit an den Herausgeber.', de));
  t.notOk(isDefinition('Es gibt viele Arten von Anleihen.', de));
});

t.test("a definition has a verb that says what a thing is; the writer's own offer defines nothing", async (t) => {
  const en = ctxFor('en', 'what is an emergency electrician');
  t.notOk(
    isDefinition('For the best emergency electrician the town has to offer, call us now!', en),
    '"has" says no "is"',
  );
  t.notOk(isDefinition('Our emergency electrician service is quick and friendly.', en), "the writer's own offer");
  t.ok(isDefinition('An emergency electrician is an electrician on call outside working hours.', en));
  const pl = ctxFor('pl', 'co to jest wentylacja mechaniczna');
  t.ok(isDefinition('Wentylacja mechaniczna polega na wymianie powietrza przez wentylator.', pl));
  t.notOk(isDefinition('Nasza wentylacja mechaniczna jest cicha i tania.', pl));
  const de = ctxFor('de', 'was ist ein notdienst');
  t.ok(isDefinition('Ein Notdienst bezeichnet einen Handwerker, der auch nachts kommt.', de));
  t.notOk(isDefinition('Unser Notdienst ist schnell und günstig.', de));
});

t.test('a word that turns to the reader is no name, a name still is', async (t) => {
  const pl = ctxFor('pl', 'rodzaje śrub');
  t.notOk(isProtected('Dziękujemy, że przeczytałeś ten tekst o rodzajach śrub, i życzymy Ci udanych zakupów.', pl));
  t.notOk(isProtected('Dzięki temu Twój zestaw śrub będzie kompletny.', pl));
  t.ok(isProtected('Jak radzi Jan Nowak, śrubę dobiera się do otworu.', pl), 'a person named');
  t.ok(isProtected('Zestaw ma 12 śrub.', pl), 'a figure');
  const en = ctxFor('en', 'what is a bond');
  t.notOk(isProtected('I hope this helped you understand bonds.', en));
  t.ok(isProtected('The Federal Reserve sets the rate bonds are priced against.', en));
});

t.test('a cut that leaves the next sentence pointing back at nothing is refused (so, dzięki temu)', async (t) => {
  const de = ctxFor('de', 'reifen wechseln');
  const said = 'Wichtig ist nur, dass man es sorgfältig macht.';
  t.ok(nextLeansBack(said, pageOf('de', `# Reifen\n\n${said} So steht einer sicheren Fahrt nichts im Weg.`), de));
  t.notOk(nextLeansBack(said, pageOf('de', `# Reifen\n\n${said} Der Winter kommt früh.`), de));
  const pl = ctxFor('pl', 'wymiana opon');
  const cut = 'Opony warto sprawdzać co miesiąc.';
  t.ok(nextLeansBack(cut, pageOf('pl', `# Opony\n\n${cut} Dzięki temu jazda jest bezpieczna.`), pl));
});
