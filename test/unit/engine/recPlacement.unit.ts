import t from 'tap';
import { runAudit } from '../../../services/engine/audit.ts';
import type { ScoringContext } from '../../../services/engine/context.ts';
import { buildDoc, createAnalyzer, parseContent } from '../../../services/engine/document.ts';
import { newSectionPlace, placeLabel } from '../../../services/engine/dimensions/helpers.ts';
import { lexiconFor } from '../../../services/engine/text/lexicon.ts';
import { sectionLabels } from '../../../services/engine/labels.ts';
import { recArticles } from '../../eval/recArticles.ts';

/**
 * Where a new section goes, said truthfully (an editor read 'where: end “”' and "Section:
 * Introduction" for a People Also Ask heading added at the end of the article): every addition
 * names a verbatim anchor, and its section label is the place it goes, not the section it follows.
 */

const audits = recArticles().map((a) => ({ a, r: runAudit(a.input).result }));
const adds = audits.flatMap(({ a, r }) => r.recommendations.filter((x) => x.insertAt).map((x) => ({ a, x, r })));

t.test('there are additions to check (PAA questions, sub-topics)', async (t) => {
  t.ok(adds.length >= 10, `${adds.length} additions`);
});

t.test('every addition quotes its anchor verbatim; none is placed at an unnamed end', async (t) => {
  t.same(
    adds
      .filter(({ a, x }) => !x.insertAt!.anchor || !a.input.content.includes(x.insertAt!.anchor))
      .map(({ a, x }) => `${a.name} ${x.id}: ${x.insertAt!.placement} "${x.insertAt!.anchor.slice(0, 40)}"`),
    [],
  );
});

t.test('a new section is not labelled with the name of a section it does not go into', async (t) => {
  const wrong = adds.flatMap(({ a, x, r }) => {
    if (!x.evidence?.questions.length && !/^#{2,}\s/u.test(x.after)) return [];
    const lang = r.input.language ?? a.language;
    const blocks = parseContent(a.input.content, 'markdown', null).blocks;
    const at = blocks.findIndex((b) => b.raw === x.insertAt!.anchor);
    const afterIntro = at > blocks.findIndex((b, i) => i > 0 && b.kind === 'heading' && b.level >= 2);
    // The introduction's label on a section that goes after the introduction, or a bare heading's
    // name on a section that goes before that heading.
    const heading = blocks[at]?.kind === 'heading' ? blocks[at]!.text : null;
    const bad =
      (x.section === sectionLabels(lang).intro && afterIntro) ||
      (heading !== null && x.insertAt!.placement === 'before' && x.section === heading);
    return bad
      ? [`${a.name} ${x.id}: "${x.section}" for ${x.insertAt!.placement} "${x.insertAt!.anchor.slice(0, 40)}"`]
      : [];
  });
  t.same(wrong, []);
});

t.test('a new section goes above a last section that is all sign-off, not inside it', async (t) => {
  const content = `# Kettle descaling service

We descale kettles, coffee machines and water heaters for homes and offices in Leeds.

## What we do

A descale takes 40 minutes and costs £25. We use citric acid, never harsh chemicals.

## Contact us

Ready to get rid of limescale? Call us today!

[Book online](https://example.com/book) · [Our prices](https://example.com/prices)
`;
  const doc = buildDoc(parseContent(content, 'markdown', null), content, createAnalyzer('en'), null, null);
  const ctx = { lex: lexiconFor('en') } as unknown as ScoringContext;
  const place = newSectionPlace(doc, ctx);
  t.same({ placement: place.placement, anchor: place.anchor }, { placement: 'before', anchor: '## Contact us' });
  t.equal(placeLabel(doc, place), 'New section before "Contact us"');
});
