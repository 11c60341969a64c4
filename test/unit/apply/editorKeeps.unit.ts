import t from 'tap';
import { parseHTML } from 'linkedom';
import { anchorOf, anchorsOf } from '../../../services/apply/anchors.ts';
import { isBylineOrDate } from '../../../services/engine/text/frontMatter.ts';
import { cutAtWord, planItems, withoutDanglingEnd, type PlannedItem } from '../../../services/apply/items.ts';
import { renderPreview } from '../../../services/apply/preview.ts';
import { rewrite } from '../../../services/apply/rewrite.ts';
import { parseMarkdown, stripInline } from '../../../services/engine/text/markdown.ts';
import { lexiconFor } from '../../../services/engine/text/lexicon.ts';
import type { Recommendation } from '../../../services/engine/types.ts';
import { applySources, auditForApply, type AuditedArticle } from '../../eval/applyArticles.ts';

/**
 * Issue 23, apply that an editor keeps, over the engine fixtures and corpus-a (weak and strong):
 * the meta description is the answer, never a byline; answer-first moves, never copies; the table
 * of contents stands after the introduction; one anchor rule; the preview is the rendered article.
 */
const articles: AuditedArticle[] = applySources().map(auditForApply);
const byId = (a: { items: PlannedItem[] }, id: string) => a.items.find((p) => p.item.id === id);
const count = (text: string, part: string) => text.split(part).length - 1;
const words = (s: string) => (s.match(/[\p{L}\p{N}]+/gu) ?? []).sort().join(' ');

const plan = (markdown: string, over: Partial<Parameters<typeof planItems>[0]> = {}) =>
  planItems({
    markdown,
    language: 'en',
    keyword: 'descaling a kettle',
    recommendations: [],
    paa: [],
    title: null,
    ...over,
  });

const BYLINE_FIRST = [
  '# Descaling a kettle',
  'By Sarah Whitfield, home appliance writer.',
  'Updated 3 March 2025',
  'Kettles collect limescale from hard water. Descaling a kettle takes ten minutes with citric acid. Rinse twice.',
  '## What you need',
  'Citric acid and water.',
  '## Steps',
  'Boil, soak, rinse.',
  '## How often',
  'Every month in hard-water areas.',
].join('\n\n');

t.test('the meta description is the answer, never a byline or a date line', async (t) => {
  const d = byId({ items: plan(BYLINE_FIRST) }, 'meta:description')!.item.after;
  t.equal(d, 'Descaling a kettle takes ten minutes with citric acid. Rinse twice.', 'the answer, then what follows it');
  let answered = 0;
  for (const a of articles) {
    // The description and answer-first take the same sentence: the article's answer.
    const af = byId(a, 'struct:answer-first');
    if (af?.edit?.kind === 'move' && af.item.selectable) {
      answered++;
      const answer = stripInline(af.edit.sentence).replace(/\s*\n\s*/g, ' ');
      // Cut at 155 characters, a long answer ends in "…".
      const desc = byId(a, 'meta:description')!.item.after.replace(/…$/, '');
      t.ok(desc.startsWith(answer) || answer.startsWith(desc), `${a.name}: the description opens with the answer`);
    }
    const desc = byId(a, 'meta:description')!.item.after;
    const blocks = parseMarkdown(a.markdown).blocks.filter((b) => b.kind === 'paragraph');
    const from = blocks.find((b) => b.text.includes(desc.replace(/…$/, '').split(/(?<=[.!?])\s/)[0]!));
    t.ok(from, `${a.name}: the description is text of a paragraph: ${desc}`);
    if (from) t.notOk(isBylineOrDate(from.text), `${a.name}: not a byline or a date line: ${desc}`);
    t.ok(desc.length <= 155 && !/[?？]$/u.test(desc), `${a.name}: 155 characters at most, not a question`);
  }
  t.ok(answered >= 5, `${answered} descriptions checked against the answer`);
});

t.test('bylines and date lines are told from text', async (t) => {
  for (const s of [
    'By Sarah Whitfield, home appliance writer.',
    'Reviewed by Ann Lee, editor. Published 2 June 2025.',
    'Autor: inż. Jan Kowalski, projektant instalacji.',
    'Von Anna Schmidt, Konditormeisterin.',
    'Updated 6 October 2025',
    'Aktualizacja: 14.02.2025',
    'Tomasz Kowal, 18.03.2025',
  ])
    t.ok(isBylineOrDate(s), s);
  for (const s of [
    'By 2030, most kettles will have filters.',
    'Von März bis Oktober sind die Betriebe ausgebucht.',
    'By the way, descaling a kettle takes ten minutes.',
    'Descaling a kettle takes ten minutes.',
  ])
    t.notOk(isBylineOrDate(s), s);
});

t.test('answer-first moves the answer, never copies it; the byline stays under the H1', async (t) => {
  const items = plan(
    BYLINE_FIRST.replace('Kettles collect limescale from hard water. ', 'Kettles collect limescale. '),
  );
  const r = rewrite(BYLINE_FIRST, plan(BYLINE_FIRST), ['struct:answer-first']);
  t.same(r.appliedIds, ['struct:answer-first']);
  t.match(
    r.markdown,
    /^# Descaling a kettle\n\nBy Sarah Whitfield, home appliance writer\.\n\nUpdated 3 March 2025\n\nDescaling a kettle takes ten minutes with citric acid\. Kettles collect limescale from hard water\. Rinse twice\./,
    'below the H1 and the byline standing under it, as the paragraph’s first sentence',
  );
  t.ok(items.length > 0);
  let moved = 0;
  for (const a of articles) {
    const af = byId(a, 'struct:answer-first');
    if (!af?.item.selectable || af.edit?.kind !== 'move') continue;
    const sentence = af.edit.sentence;
    const padding = lexiconFor(a.language).throatClearing.filter((p) => sentence.toLowerCase().includes(p));
    t.same(padding, [], `${a.name}: the answer moved is not a sentence that clears its throat`);
    const rw = rewrite(a.markdown, a.items, ['struct:answer-first']);
    t.same(rw.appliedIds, ['struct:answer-first'], a.name);
    moved++;
    t.equal(
      count(rw.markdown, sentence.replace(/\s*\n\s*/g, ' ')),
      count(a.markdown.replace(/\s*\n\s*/g, ' '), sentence.replace(/\s*\n\s*/g, ' ')),
      `${a.name}: the answer is in the text as often as before`,
    );
    t.equal(words(rw.markdown), words(a.markdown), `${a.name}: the same words, only moved`);
    const blocks = parseMarkdown(rw.markdown).blocks;
    let i = blocks[0]?.kind === 'heading' && blocks[0].level === 1 ? 1 : 0;
    t.equal(i, parseMarkdown(a.markdown).blocks[0]?.kind === 'heading' ? 1 : 0, `${a.name}: the H1 stays first`);
    while (blocks[i] && blocks[i]!.kind === 'paragraph' && isBylineOrDate(blocks[i]!.text)) i++;
    t.ok(blocks[i]?.raw.startsWith(sentence.replace(/\s*\n\s*/g, ' ')), `${a.name}: the text opens with the answer`);
  }
  t.ok(moved >= 5, `${moved} articles had their answer moved`);
});

t.test('the table of contents stands after the introduction, its anchors are the headings’ ids', async (t) => {
  let tocs = 0;
  for (const a of articles) {
    const toc = byId(a, 'struct:toc');
    if (!toc?.item.selectable) continue;
    const rw = rewrite(a.markdown, a.items, ['struct:toc']);
    if (!rw.appliedIds.length) continue;
    tocs++;
    const blocks = parseMarkdown(rw.markdown).blocks;
    const firstH2 = blocks.findIndex((b) => b.kind === 'heading' && b.level === 2);
    const list = blocks.findIndex((b) => b.kind === 'list' && b.raw.includes('](#'));
    t.equal(list, firstH2 - 1, `${a.name}: the list of contents is right before the first H2`);
    const original = parseMarkdown(a.markdown).blocks;
    const introEnd = original.findIndex((b) => b.kind === 'heading' && b.level === 2);
    t.same(
      blocks.slice(0, list - 1).map((b) => b.raw),
      original.slice(0, introEnd).map((b) => b.raw),
      `${a.name}: the whole introduction comes before it`,
    );
    const { document } = parseHTML(renderPreview(a.markdown, rw, a.language));
    const ids = new Set([...document.querySelectorAll('h1,h2,h3,h4,h5,h6')].map((h) => h.getAttribute('id')));
    const links = [...toc.item.after.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
    t.ok(links.length >= 3, `${a.name}: ${links.length} entries`);
    for (const l of links) t.ok(ids.has(l), `${a.name}: #${l} is a heading of the preview`);
  }
  t.ok(tocs >= 5, `${tocs} tables of contents`);
});

t.test('one anchor rule in every language', async (t) => {
  t.equal(anchorOf('Zażółć gęślą jaźń'), 'zażółć-gęślą-jaźń', 'Polish letters kept, ł like ą');
  t.equal(anchorOf('Łódź i Kraków: ceny'), 'łódź-i-kraków-ceny');
  t.equal(anchorOf('Größe & Gewicht'), 'größe--gewicht', 'as GitHub writes it');
  t.equal(anchorOf('Step-by-step: descale the **machine**'), 'step-by-step-descale-the-machine');
  t.same(anchorsOf(['Koszty', 'Koszty', 'Koszty-1']), ['koszty', 'koszty-1', 'koszty-1-1']);
});

t.test('previewHtml is the rendered article with its changes marked, JSON-LD apart', async (t) => {
  const jsonLd =
    '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Article","headline":"Descaling a kettle"}</script>';
  const recs: Recommendation[] = [
    {
      id: 'rec:1',
      priority: 'high',
      title: 'Add Article data',
      dimension: 'cor',
      actionType: 'add',
      section: '',
      before: '',
      after: jsonLd,
      insertAt: { placement: 'end', anchor: '' },
      impact: '',
      estimatedCqsDelta: 1,
      authorDataOnly: false,
      competitorUrls: [],
    },
    {
      id: 'rec:2',
      priority: 'high',
      title: 'Name the acid',
      dimension: 'eav',
      actionType: 'replace',
      section: 'Steps',
      before: 'Boil, soak, rinse.',
      after: 'Boil, soak in **citric acid**, rinse ([how much](https://example.org/acid)).',
      insertAt: null,
      impact: '',
      estimatedCqsDelta: 1,
      authorDataOnly: false,
      competitorUrls: [],
    },
  ];
  const items = plan(BYLINE_FIRST, { recommendations: recs });
  const r = rewrite(BYLINE_FIRST, items, ['rec:1', 'rec:2', 'struct:toc', 'struct:answer-first', 'meta:description']);
  t.same(r.appliedIds, ['rec:1', 'rec:2', 'meta:description', 'struct:answer-first', 'struct:toc']);
  const html = renderPreview(BYLINE_FIRST, r, 'en');
  const { document } = parseHTML(html);
  const doc = document.querySelector('article.doc')!;
  t.equal(doc.querySelector('h1')?.textContent, 'Descaling a kettle', 'the H1 rendered');
  t.equal(doc.querySelectorAll('h2').length, 3, 'the H2s rendered');
  t.notMatch(doc.textContent, /(^|\n)#+ |\*\*|\]\(/, 'no Markdown source in the text');
  t.ok(
    [...doc.querySelectorAll('mark.changed strong')].some((e) => e.textContent === 'citric acid'),
    'emphasis rendered, in the changed text',
  );
  t.equal(doc.querySelector('a[href="https://example.org/acid"]')?.textContent, 'how much', 'a link rendered');
  t.ok(
    doc.querySelectorAll('div.new a[href^="#"]').length === 3,
    'the new table of contents, green, with in-page links',
  );
  t.ok(doc.querySelector('mark.changed, ins.new'), 'changed words marked');
  t.notMatch(doc.textContent, /@context|ld\+json/, 'no JSON-LD in the article');
  t.match(
    document.querySelector('.page-code pre.new')?.textContent ?? '',
    /"@type": "Article"/,
    'JSON-LD apart, as page code',
  );
  t.equal(document.querySelectorAll('.card').length, r.applied.length, 'one BEFORE/AFTER card per applied item');
  t.notOk(document.querySelector('script, img, iframe'), 'nothing that runs or loads');
  for (const a of articles.slice(0, 12)) {
    const sel = a.items.filter((p) => p.item.selectable).map((p) => p.item.id);
    const rw = rewrite(a.markdown, a.items, sel);
    const { document } = parseHTML(renderPreview(a.markdown, rw, a.language));
    const text = document.querySelector('article.doc')!.textContent;
    t.notMatch(text, /(^|\n)#{1,6} |\*\*\S/, `${a.name}: rendered, not Markdown source`);
    if (rw.markdown !== a.markdown) t.ok(document.querySelector('.new, .changed, .old'), `${a.name}: changes marked`);
  }
});

t.test('a cut title ends on a word that closes a phrase, never inside the keyword or on a function word', async (t) => {
  const cut = (title: string, keyword: string) => withoutDanglingEnd(cutAtWord(title, 65), title, keyword, 'en');
  t.equal(
    cut('Mesh Router Setup: The Mesh Router Setup Guide About Mesh Router Setup', 'mesh router setup'),
    'Mesh Router Setup: The Mesh Router Setup Guide',
  );
  t.equal(
    cut('How to Repot a Cactus: A 20-Minute Routine for Every Windowsill and Balcony', 'repot a cactus'),
    'How to Repot a Cactus: A 20-Minute Routine for Every Windowsill',
    'a cut that ends on a noun stays',
  );
  t.equal(cut('Short title about a cactus', 'repot a cactus'), 'Short title about a cactus', 'a short title stays');
});
