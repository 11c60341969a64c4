import t from 'tap';
import { auditContent } from '../../../services/engine/audit.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';
import { classifyProfile } from '../../../services/engine/profile.ts';

/**
 * A local provider's page, judged as what a local search wants (issue 24, a report that does not
 * contradict itself): read as a landing page when it asks to call or book and states its prices or
 * hours; its "Opening hours" and "About us" are the page's apparatus; a page of the wrong type is
 * told the format its keyword's intent wants. Made-up pages.
 */
const provider = [
  '# Emergency electrician in Harwick – fixed call-out prices',
  'By Sam Oduya, owner and registered electrician',
  'A power cut at night or a tripping fuse box? Call 01632 960 118 at any hour: an electrician answers in person and reaches most of Harwick within an hour. A daytime call-out costs £85, evenings £120.',
  '## What a call-out costs',
  'The first hour is included in the call-out price; after that we charge £30 for each half hour, and parts at cost.',
  '## Opening hours',
  'The phone line is open day and night; the workshop is open Monday to Saturday from 8am to 6pm.',
  '## About us',
  'Three electricians work here, each registered with the national scheme, and every job carries a one-year guarantee.',
].join('\n\n');

const profileOf = (content: string) => {
  const p = prepareDocument({ content, url: null, keyword: 'emergency electrician harwick', language: 'en' });
  return classifyProfile(p.doc, p.lex);
};

t.test('a page that asks to call or book and states its prices reads as a landing page', async (t) => {
  t.equal(profileOf(provider), 'landing');
  const explainer = provider.replace(/Call 01632 960 118 at any hour: /, '').replace(/ A daytime call-out.*$/m, '');
  t.not(profileOf(explainer.replace(/£\d+/g, 'a fee')), 'landing', 'no call to act, no prices: not a provider page');
});

const audit = (content: string) =>
  auditContent({ content, url: null, keyword: 'emergency electrician harwick', language: 'en', benchmark: null });
const csiProblems = (content: string) => audit(content).dimensions.find((d) => d.id === 'csiAlignment')!.problems;

t.test('a provider page\'s "Opening hours" and "About us" are no off-topic headings', async (t) => {
  const titles = csiProblems(provider).map((p) => p.title);
  t.notOk(
    titles.some((x) => /Opening hours|About us/.test(x)),
    titles.join(' | '),
  );
});

t.test('a page of the wrong type is told the format its intent wants, named in the report', async (t) => {
  const thin = [
    '# Electricians',
    'Electricity is a very important part of modern life in every home and every business in Harwick and beyond.',
    'There are many things to know about electricity in Harwick, and in this article we look at some of them in detail.',
    'Electric current flows through wires, and it can be dangerous when it is not handled with care by a professional in Harwick.',
  ].join('\n\n');
  const mismatch = csiProblems(thin).find((p) => /page type/i.test(p.title));
  t.ok(mismatch, 'the type mismatch is a problem');
  t.match(mismatch?.suggestion ?? '', /local service page/);
  t.notMatch(mismatch?.problem ?? '', / a article/);
});
