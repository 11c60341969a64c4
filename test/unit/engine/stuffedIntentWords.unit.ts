/**
 * A stuffed sentence that repeats the query as typed, its intent words too ("artykuł odkurzacz
 * opinie"), adds nothing (issue 23, stuffing misses of blind review r12): the intent words are the
 * keyword's, not the sentence's own content. Sentences written for this test.
 */
import t from 'tap';
import { engineView } from '../../../services/apply/engineView.ts';
import { addsNothing } from '../../../services/engine/grounding.ts';

const page =
  '# Odkurzacz opinie\n\nOdkurzacz bezprzewodowy Varta V8 kosztuje 899 zł i sprząta 60 minut na jednym ładowaniu.\n';

t.test("the query's intent words repeated in a sentence are no content of its own", async (t) => {
  const { ctx } = engineView(page, 'odkurzacz opinie', 'pl')!;
  t.ok(addsNothing('W tym tekście odkurzacz opinie przedstawiamy czytelnikom wszystkim razem.', ctx));
  t.notOk(
    addsNothing('Odkurzacz Varta zebrał w teście sierść psa z dywanu, piasek z przedpokoju i okruchy spod stołu.', ctx),
    'a sentence that says something',
  );
});
