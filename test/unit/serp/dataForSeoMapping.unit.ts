import t from 'tap';
import { serpFromItems } from '../../../infra/serp/dataForSeo/provider.ts';
import { locationFor } from '../../../infra/serp/dataForSeo/locations.ts';

t.test('SERP items: organic in order, PAA and related deduplicated, other types ignored', async (t) => {
  const got = serpFromItems([
    { type: 'featured_snippet', url: 'https://snippet.example/', title: 'Snippet' },
    { type: 'organic', url: 'https://a.example/', title: ' A ' },
    {
      type: 'people_also_ask',
      items: [
        { type: 'people_also_ask_element', title: 'Why?' },
        { title: 'Why?' },
        { type: 'people_also_ask_element' },
      ],
    },
    { type: 'paid', url: 'https://ad.example/', title: 'Ad' },
    { type: 'organic', url: null, title: 'no url' },
    { type: 'organic', url: 'https://b.example/', title: null },
    { type: 'related_searches', items: ['one', 'one', { title: 'two' }, 3] },
  ]);
  t.same(got, {
    serpOrganicCount: 2,
    organic: [
      { url: 'https://a.example/', title: 'A' },
      { url: 'https://b.example/', title: '' },
    ],
    paa: ['Why?'],
    related: ['one', 'two'],
  });
});

t.test('location follows the language', async (t) => {
  t.equal(locationFor('pl'), 2616);
  t.equal(locationFor('DE'), 2276);
  t.equal(locationFor('en'), 2840);
  t.equal(locationFor('xx'), 2840, 'unknown: United States');
});
