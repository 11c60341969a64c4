/**
 * The title repeats the keyword (density, issue 23's stuffing rejects): a title that gives the query
 * as typed and then says what the page did with the thing ("Garden Hose Review: 6 Garden Hoses
 * Tested") is natural; one that repeats the query's intent words too, or names the thing three
 * times, repeats the query. Titles written for this test.
 */
import t from 'tap';
import { scoreContent } from '../../../services/engine/audit.ts';

const body =
  'We dragged six garden hoses over gravel for 30 days. The Lindqvist Flex garden hose never kinked and costs 49 euros. ' +
  'Cheaper hoses cracked at the couplings within two weeks of daily use.';
const titleFindings = (title: string) =>
  scoreContent({ content: `# ${title}\n\n${body}\n`, format: 'markdown', url: null, keyword: 'garden hose review' })
    .outcomes.find((o) => o.id === 'density')!
    .findings.filter((f) => f.kind === 'stuffingRewrite' || f.kind === 'stuffedTitle');

t.test('the query as typed, then what the page did with the thing: no repeat', async (t) => {
  t.same(titleFindings('Garden Hose Review: 6 Garden Hoses Tested on Gravel'), []);
});

t.test('the intent word repeated, or the thing named three times: a repeat', async (t) => {
  t.equal(titleFindings('Garden Hose Review – the Best Garden Hoses in Our Review').length, 1, 'review … review');
  t.equal(titleFindings('Garden Hose Review: Garden Hoses and Garden Hose Reels').length, 1, 'three times');
});
