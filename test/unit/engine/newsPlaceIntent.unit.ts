/**
 * A place in the keyword is where an event happened when the SERP reports one (two results or more
 * dated, quoting who said it, told in the past tense): the query asks for news, not for a service in
 * that town, whatever the audited page is like (an undated poor page read "flood <town>" as a local
 * service: "find the flood nearby", and the advice to make it a service page). Made-up pages.
 */
import t from 'tap';
import { prepareDocument } from '../../../services/engine/prepare.ts';
import type { CompetitorInput } from '../../../services/engine/types.ts';

const KEYWORD = 'flood thale';
const page =
  '# Flood Thale\n\nThe flood in Thale is a big topic right now and many people talk about it. ' +
  'Everybody in Thale wants to know what happens next and how long the water stays. ' +
  'Floods like this one can cause a lot of damage to houses, roads and cars, and they are never easy for anyone.';
const report = (n: number): CompetitorInput => ({
  url: `https://news${n}.example/thale-flood`,
  title: 'Flood in Thale: old town evacuated',
  text:
    `Published 12 March 2026. The river Bode burst its banks in Thale on Monday night, the mayor said. ` +
    `Firefighters evacuated ${40 + n} homes in the old town, a spokesman for the district announced. ` +
    'The water rose to two metres at the bridge and cut the road to Blankenburg. ' +
    'Volunteers filled sandbags until the morning, and the school stayed closed on Tuesday. ' +
    'The district opened a hall for the families who left their houses.',
});
const guide: CompetitorInput = {
  url: 'https://guide.example/thale',
  title: 'Thale travel guide',
  text:
    'Thale lies at the foot of the Harz mountains and is known for the Bode gorge and its cable car. ' +
    'Walkers take the path along the river to the Devil’s Wall, and families visit the animal park. ' +
    'The town has several hotels, a spa and a market square with cafés open all year round.',
};
const intentOf = (competitors: CompetitorInput[] | null) =>
  prepareDocument({
    content: page,
    url: null,
    keyword: KEYWORD,
    language: 'en',
    format: 'markdown',
    benchmark: competitors && { competitors, paa: [], related: [], searchVolume: 0, serpOrganicCount: 0 },
  }).kw.intent;

t.test('a SERP that reports the event makes the place in the keyword the scene, not a service area', async (t) => {
  t.equal(intentOf(null), 'local', 'without a SERP the page alone reads the town as a service area');
  t.not(intentOf([report(1), report(2), guide]), 'local', 'two reports in the results: news');
  t.equal(intentOf([report(1), guide, guide]), 'local', 'one stray report is not enough');
});
