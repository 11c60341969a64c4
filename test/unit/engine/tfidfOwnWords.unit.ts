/**
 * A report never asks a page to "cover" the query's own words (issue 24, item 5): density says
 * whether the keyphrase is used enough; tfidf's card names the SERP's other terms. Corpus-wide over
 * the tuning sets, every strong and poor article audited with its SERP. The score still counts
 * them (their over-use and coverage stay part of tfidf).
 */
import t from 'tap';
import { runAudit } from '../../../services/engine/audit.ts';
import { loadSet, TUNING_SETS } from '../../eval/corpus.ts';

for (const set of TUNING_SETS)
  t.test(`${set}: missing terms never made of the query's words`, async (t) => {
    for (const topic of loadSet(set))
      for (const q of ['strong', 'poor'] as const) {
        const run = runAudit({
          content: topic[q],
          url: null,
          keyword: topic.keyword,
          language: topic.language,
          benchmark: topic.serp,
        });
        // The query's words, and their inflections or compounds of them alone, as the page writes them.
        const words = topic.keyword.toLowerCase().split(/\s+/);
        const queryWord = (w: string) => {
          const low = w.toLowerCase();
          if (words.includes(low)) return true;
          if (
            words.some((q) => q.length >= 5 && low.startsWith(q.slice(0, q.length - 2)) && low.length <= q.length + 3)
          )
            return true;
          return (
            words.filter((q) => q.length >= 4).reduce((rest, q) => rest.replace(q.slice(0, -1), ''), low).length <= 3
          );
        };
        const terms = run.scored.outcomes
          .find((o) => o.id === 'tfidf')!
          .findings.filter((f) => f.kind === 'terms')
          .flatMap((f) => f.title.replace(/^[^:]*:\s*/u, '').split(', '));
        const own = terms.filter((x) => x.split(' ').every(queryWord));
        t.same(own, [], `${topic.id} ${q}`);
      }
  });
