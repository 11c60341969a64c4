import t from 'tap';
import { planItems, type ItemsInput } from '../../../services/apply/items.ts';
import { needsAuthorData, writableByModel } from '../../../services/apply/placeholders.ts';
import { renderPreview } from '../../../services/apply/preview.ts';
import { rewrite } from '../../../services/apply/rewrite.ts';
import { toMarkdown } from '../../../services/apply/sourceMarkdown.ts';
import type { Recommendation } from '../../../services/engine/types.ts';

const rec = (over: Partial<Recommendation>): Recommendation => ({
  id: 'x',
  priority: 'high',
  title: 'Fix',
  dimension: 'bluf',
  actionType: 'replace',
  section: 'Intro',
  before: '',
  after: '',
  insertAt: null,
  impact: 'high',
  estimatedCqsDelta: 1,
  competitorUrls: [],
  authorDataOnly: false,
  ...over,
});

/** Recommendations as the engine gives them: each with its id, rec:1 first (issue 23). */
const numbered = (recs: Recommendation[]): Recommendation[] => recs.map((r, i) => ({ ...r, id: `rec:${i + 1}` }));

const md = `# Descaling a kettle\n\nKettles collect limescale. Descaling a kettle takes ten minutes.\n\n## Why\n\nHard water leaves deposits.\n\n![A kettle](https://img.example/k.png)\n`;

t.test('author data: placeholders and letter figures', async (t) => {
  for (const s of [
    'Add [fill in: your test result]',
    'It costs X zł',
    '[uzupełnij: cena]',
    'Cost: [X%]',
    'See [source]',
  ])
    t.ok(needsAuthorData(s), s);
  t.ok(needsAuthorData('[ergänzen: eine Antwort in 2-3 Sätzen]'), 'a German gap');
  for (const s of [
    'Descale monthly.',
    'Use 2 cups of vinegar [1].',
    'See [the guide](https://x.example)',
    // A table of contents: link texts that contain "you", "add" or "source" are not gaps.
    '- [What you need](#what-you-need)\n- [How to add vinegar](#how-to-add-vinegar)\n- [Open source tools](#open-source-tools)',
    '[Quellen und Werkzeuge](#quellen)',
    'Read [the paddle guide].',
  ])
    t.notOk(needsAuthorData(s), s);
});

/** The items of an English article on "descaling a kettle" with no recommendations or SERP. */
const planEnglish = (markdown: string, over: Partial<Omit<ItemsInput, 'markdown'>> = {}) =>
  planItems({
    markdown,
    language: 'en',
    keyword: 'descaling a kettle',
    recommendations: [],
    paa: [],
    title: null,
    ...over,
  });

const sentence = (i: number, words = 14) =>
  `Sentence ${i} ${Array.from({ length: words - 3 }, (_, k) => `word${String.fromCharCode(97 + (k % 26))}`).join(' ')} ends.`;

t.test('items: a paragraph over 150 words is broken at sentence boundaries, nothing lost', async (t) => {
  const long = Array.from({ length: 24 }, (_, i) => sentence(i)).join(' '); // 24 × 14 = 336 words
  const short = 'Descaling a kettle is quick. Vinegar works.';
  const markdown = `# Descaling a kettle\n\n${short}\n\n## Steps\n\n${long}\n`;
  const items = planEnglish(markdown);
  const para = items.filter((p) => p.item.id.startsWith('struct:paragraph:'));
  t.equal(para.length, 1, 'only the long paragraph');
  const item = para[0]!.item;
  t.match(item, { selectable: true, section: 'Steps', actionType: 'restructure', before: long });
  const parts = item.after.split('\n\n');
  t.ok(parts.length >= 3, `${parts.length} paragraphs`);
  for (const p of parts) t.ok(p.split(' ').length <= 150, `a part of ${p.split(' ').length} words`);
  t.equal(parts.join(' '), long, 'the same sentences in the same order');
  const r = rewrite(markdown, items, [item.id]);
  t.same(r.appliedIds, [item.id]);
  t.ok(r.markdown.includes(parts[1]!) && !r.markdown.includes(long));
});

t.test('items: padding sentences are offered for cutting, one by one', async (t) => {
  const markdown = [
    '# Descaling a kettle',
    'In this article we will look at kettles. Descaling a kettle takes ten minutes with citric acid.',
    'Nowadays 9 in 10 kettles have a filter. Rinse twice.',
    'In this guide you learn everything.',
  ].join('\n\n');
  const items = planEnglish(markdown);
  const cuts = items.filter((p) => p.item.id.startsWith('struct:padding:'));
  t.same(
    cuts.map((p) => p.item.before),
    ['In this article we will look at kettles.'],
    'not a sentence with a figure, not the only sentence of its paragraph',
  );
  t.match(cuts[0]!.item, { selectable: true, actionType: 'remove', after: '' });
  const r = rewrite(markdown, items, [cuts[0]!.item.id]);
  t.ok(r.markdown.includes('\n\nDescaling a kettle takes ten minutes'), 'the sentence and its space are gone');
});

t.test('items: the text written into a German article is German', async (t) => {
  const body = Array.from(
    { length: 4 },
    (_, i) => `## Teil ${i}\n\nDer Wasserhahn wird gewechselt. Schritt ${i}.`,
  ).join('\n\n');
  const items = planItems({
    markdown: `# Wasserhahn wechseln\n\nDen Wasserhahn wechseln Sie in einer Stunde.\n\n${body}`,
    language: 'de',
    keyword: 'wasserhahn wechseln',
    recommendations: [],
    paa: ['Wie lange dauert es?'],
    title: null,
  });
  const by = Object.fromEntries(items.map((p) => [p.item.id, p.item]));
  t.match(by['struct:toc']!.after, /^\*\*Inhalt\*\*/);
  t.equal(by['struct:toc']!.selectable, true, 'a table of contents is not author data');
  t.match(by['struct:faq']!.after, /^## Häufig gestellte Fragen/);
  t.match(by['struct:faq'], { authorDataOnly: true, selectable: false });
  t.match(by['meta:title']!.label, /Titel/);
});

t.test('items: flags and stable ids', async (t) => {
  const recs = numbered([
    rec({ before: 'Kettles collect limescale.', after: 'Kettles collect limescale from hard water.' }),
    rec({ before: 'Hard water', after: 'It took [fill in: minutes] minutes' }),
    rec({ before: '', after: 'Be bold.' }),
  ]);
  const items = planEnglish(md, { recommendations: recs, paa: ['How often?'], title: 'Descaling a kettle' });
  const by = Object.fromEntries(items.map((p) => [p.item.id, p.item]));
  t.equal(by['rec:1']!.selectable, true);
  t.match(by['rec:2'], { authorDataOnly: true, selectable: false });
  t.match(
    by['rec:3'],
    { editorialOnly: true, selectable: false },
    'an addition with no place in the text is a whole-text decision',
  );
  t.match(by['struct:faq'], { authorDataOnly: true, selectable: false }, 'FAQ answers are the author’s');
  t.same(
    planEnglish(md, { recommendations: recs, paa: ['How often?'], title: 'Descaling a kettle' }).map((p) => p.item.id),
    items.map((p) => p.item.id),
    'stable ids',
  );
  const pl = planItems({
    markdown: md,
    language: 'pl',
    keyword: 'odkamienianie',
    recommendations: [],
    paa: [],
    title: null,
  });
  t.match(pl.find((p) => p.item.id === 'meta:title')!.item.label, /Tytuł/);
});

t.test('rewrite: applied, not found, overlapping; meta into title', async (t) => {
  const recs = numbered([
    rec({ before: 'Kettles collect limescale.', after: 'Kettles collect limescale from hard water.' }),
    rec({ before: 'collect limescale', after: 'gather scale' }),
    rec({ before: 'Not in the text.', after: 'Whatever.' }),
  ]);
  const items = planEnglish(md, {
    recommendations: recs,
    title: 'Descaling a kettle with vinegar or citric acid in ten minutes: a guide for hard water',
  });
  const r = rewrite(md, items, ['rec:1', 'rec:2', 'rec:3', 'meta:title', 'unknown']);
  t.same(r.appliedIds, ['rec:1', 'meta:title']);
  t.same(
    r.skipped.map((s) => [s.id, s.reason]),
    [
      ['rec:2', 'overlapping'],
      ['rec:3', 'not_found'],
    ],
  );
  t.match(r.markdown, /Kettles collect limescale from hard water\./);
  t.match(r.markdown, /!\[A kettle\]\(https:\/\/img\.example\/k\.png\)/, 'images stay Markdown images');
  t.equal(r.title, 'Descaling a kettle with vinegar or citric acid in ten minutes', 'cut at its joint');
  t.equal(r.description, null);
});

t.test('preview: word diff highlights, sanitised, a CSP without script', async (t) => {
  const hostile = `${md}\n<script>alert(1)</script><img src=x onerror="alert(2)">`;
  const items = planEnglish(hostile, {
    recommendations: numbered([rec({ before: 'ten minutes', after: 'about ten minutes' })]),
  });
  const r = rewrite(hostile, items, ['rec:1']);
  const html = renderPreview(hostile, r, 'en');
  t.match(html, /<ins class="new">about <\/ins>|<mark class="changed">/);
  t.notMatch(html, /<script/i);
  t.notMatch(html, /<img/i);
  t.match(html, /Content-Security-Policy" content="default-src 'none'/);
});

t.test('fetched HTML becomes Markdown with its images', async (t) => {
  const html = `<html><head><title>T</title></head><body><nav>menu</nav><article><h1>Descaling</h1><p>${'Kettles collect limescale over time. '.repeat(20)}</p><img src="https://img.example/a.png" alt="A"><p>${'Vinegar works well. '.repeat(20)}</p></article></body></html>`;
  const out = toMarkdown(html, 'html');
  t.match(out, /!\[A\]\(https:\/\/img\.example\/a\.png\)/);
  t.match(out, /Kettles collect limescale/);
});

t.test('the guard: an item that lowers the score is skipped (lowers_score), the others kept', async (t) => {
  const recs = numbered([
    rec({ before: 'Kettles collect limescale.', after: 'Kettles collect limescale from hard water.' }),
    rec({ before: 'Hard water leaves deposits.', after: 'Deposits.' }),
  ]);
  const items = planEnglish(md, { recommendations: recs, title: 'Descaling a kettle' });
  // A scorer that counts words: the second item shortens the text, so it lowers the score.
  const words = (s: string) => s.split(/\s+/).filter(Boolean).length;
  const r = rewrite(md, items, ['rec:1', 'rec:2'], (text) => words(text));
  t.same(r.appliedIds, ['rec:1']);
  t.match(r.skipped, [{ id: 'rec:2', reason: 'lowers_score' }]);
  t.match(r.markdown, /from hard water/);
  t.match(r.markdown, /Hard water leaves deposits\./, 'the skipped item left the text as it was');
  t.same(rewrite(md, items, ['rec:1', 'rec:2']).appliedIds, ['rec:1', 'rec:2'], 'without a scorer, no guard');
});

t.test(
  'the content limit: an item that would take the article over it is skipped (too_large), never scored',
  async (t) => {
    const long = `${md}\n\n${'Filler paragraph that pads the article close to the limit. '.repeat(3_320)}`;
    t.ok(long.length < 200_000 && long.length > 195_000, `${long.length} characters`);
    const grow = 'Kettles collect limescale from hard water, ' + 'and more words follow here. '.repeat(250);
    const recs = numbered([
      rec({ before: 'Kettles collect limescale.', after: grow }),
      rec({ before: 'Hard water leaves deposits.', after: 'Hard water leaves white deposits.' }),
    ]);
    const items = planEnglish(long, { recommendations: recs, title: 'Descaling a kettle' });
    const scored: number[] = [];
    const r = rewrite(long, items, ['rec:1', 'rec:2'], (text) => {
      if (text.length > 200_000) throw new Error('the scorer was asked for a text over the limit');
      scored.push(text.length);
      return text.length;
    });
    t.same(r.appliedIds, ['rec:2']);
    t.match(r.skipped, [{ id: 'rec:1', reason: 'too_large', message: /200,000-character content limit/ }]);
    t.ok(r.markdown.length <= 200_000);
  },
);

t.test('writer model: general gaps become selectable, first-hand facts do not', async (t) => {
  for (const s of [
    '## What is it?\n\nIt is [fill in: a one-sentence definition with one concrete attribute].',
    '### Q?\n\n[fill in: a 2-3 sentence answer]',
  ])
    t.ok(writableByModel(s), s);
  for (const s of [
    'For example, [fill in: a worked example from your own practice, with numbers].',
    'It costs [fill in: a price range with the currency]',
    'Value [fill in: the exact value with its unit].',
    '| a | [fill in: value] |',
    'It costs X zł',
    'No gap here.',
  ])
    t.notOk(writableByModel(s), s);
  const recs = numbered([
    rec({
      before: '',
      after: '## What is it?\n\nIt is [fill in: a one-sentence definition].',
      insertAt: { placement: 'end', anchor: '' } as Recommendation['insertAt'],
    }),
    rec({ before: 'Hard water', after: 'It took [fill in: your own measured minutes]' }),
  ]);
  const input = {
    markdown: md,
    language: 'en',
    keyword: 'descaling a kettle',
    recommendations: recs,
    paa: ['How often?'],
    title: 'Descaling a kettle',
  };
  const off = Object.fromEntries(planItems(input).map((p) => [p.item.id, p]));
  const on = Object.fromEntries(planItems({ ...input, writer: true }).map((p) => [p.item.id, p]));
  t.match(off['rec:1']!.item, { authorDataOnly: true, selectable: false }, 'without the model: the author’s');
  t.match(
    on['rec:1'],
    { item: { authorDataOnly: false, selectable: true }, write: true },
    'with the model: written by it',
  );
  t.match(on['struct:faq'], { item: { selectable: true }, write: true }, 'the FAQ answers too');
  t.match(
    on['rec:2']!.item,
    { authorDataOnly: true, selectable: false },
    'first-hand facts stay authorDataOnly even with the model',
  );
});

t.test('a cut, a move and a split of one paragraph all go in, each as chosen', async (t) => {
  const filler = Array.from({ length: 12 }, (_, i) => sentence(i)).join(' '); // 168 words
  const opening = `In this article we will look at descaling a kettle. ${filler} Descaling a kettle takes ten minutes with citric acid.`;
  const markdown = `# Descaling a kettle\n\n${opening}\n\n## Steps\n\nBoil, soak, rinse.\n`;
  const items = planEnglish(markdown);
  const ids = ['struct:answer-first', 'struct:padding:0', 'struct:paragraph:0'];
  for (const id of ids) t.ok(items.find((p) => p.item.id === id)?.item.selectable, `${id} offered`);
  const af = items.find((p) => p.item.id === 'struct:answer-first')!;
  t.match(
    af.edit,
    { kind: 'move', sentence: 'Descaling a kettle takes ten minutes with citric acid.' },
    'the answer, not the announcement',
  );
  const r = rewrite(markdown, items, ids);
  t.same(r.appliedIds, ids, 'none skipped as overlapping');
  t.notMatch(r.markdown, /In this article/, 'the padding cut');
  t.match(r.markdown, /^# Descaling a kettle\n\nDescaling a kettle takes ten minutes with citric acid\. Sentence 0 /);
  t.equal(r.markdown.split('Descaling a kettle takes').length - 1, 1, 'the answer once');
  const paragraphs = r.markdown.split('\n\n').filter((p) => p.startsWith('Sentence') || p.startsWith('Descaling'));
  t.ok(paragraphs.length >= 2, `the paragraph broken in ${paragraphs.length}`);
  t.equal(
    r.markdown.replace(/\s+/g, ' '),
    `# Descaling a kettle Descaling a kettle takes ten minutes with citric acid. ${filler} ## Steps Boil, soak, rinse. `,
    'every other word where it was',
  );
});

t.test('a rewrite of one sentence and a split of its paragraph both go in', async (t) => {
  const filler = Array.from({ length: 12 }, (_, i) => sentence(i)).join(' '); // 168 words
  const stuffed = 'Descaling a kettle is easy, and descaling a kettle is quick.';
  const paragraph = `${filler} ${stuffed} Rinse it twice.`;
  const markdown = `# Descaling a kettle\n\n${paragraph}\n\n## Steps\n\nBoil, soak, rinse.\n`;
  // The engine's rewrite quotes the whole paragraph as BEFORE and changes one sentence in it.
  const recs = numbered([
    rec({ before: paragraph, after: paragraph.replace(stuffed, 'Descaling a kettle is quick.') }),
  ]);
  const items = planEnglish(markdown, { recommendations: recs });
  const ids = ['rec:1', 'struct:paragraph:0'];
  for (const id of ids) t.ok(items.find((p) => p.item.id === id)?.item.selectable, `${id} offered`);
  const r = rewrite(markdown, items, ids);
  t.same(r.appliedIds, ids, 'none skipped as overlapping');
  t.notMatch(r.markdown, /easy, and descaling/, 'the rewrite placed');
  t.ok(r.markdown.split('\n\n').filter((p) => p.startsWith('Sentence')).length >= 2, 'the paragraph broken');
  t.equal(
    r.markdown.replace(/\s+/g, ' '),
    `# Descaling a kettle ${filler} Descaling a kettle is quick. Rinse it twice. ## Steps Boil, soak, rinse. `,
    'every other word where it was',
  );
});

t.test('two chosen items on the same words: the one that raises the score more goes in', async (t) => {
  const recs = numbered([
    rec({ before: 'Kettles collect limescale.', after: 'Kettles collect limescale from hard water.' }),
    rec({
      before: 'Kettles collect limescale.',
      after: 'Kettles collect limescale from hard water in hard-water areas.',
    }),
  ]);
  const items = planEnglish(md, { recommendations: recs, title: 'Descaling a kettle' });
  const words = (s: string) => s.split(/\s+/).filter(Boolean).length;
  const r = rewrite(md, items, ['rec:1', 'rec:2'], (text) => words(text));
  t.same(r.appliedIds, ['rec:2'], 'the longer AFTER scores more under this scorer');
  t.match(r.skipped, [{ id: 'rec:1', reason: 'overlapping' }]);
  t.same(rewrite(md, items, ['rec:1', 'rec:2']).appliedIds, ['rec:1'], 'without a scorer, item order');
});

t.test('the guard compares scores unrounded: a change costing less than a point is still left out', async (t) => {
  const recs = numbered([rec({ before: 'Hard water leaves deposits.', after: 'Hard water leaves deposits behind.' })]);
  const items = planEnglish(md, { recommendations: recs });
  // A scorer a rounded comparison would call equal: 50.2 before, 49.9 after.
  const r = rewrite(md, items, ['rec:1'], (text) => (text.includes('behind') ? 49.9 : 50.2));
  t.same(r.appliedIds, []);
  t.match(r.skipped, [{ id: 'rec:1', reason: 'lowers_score' }]);
});

t.test('preview: a paragraph broken in two shows its new paragraph as changed, no empty mark', async (t) => {
  const long = Array.from({ length: 24 }, (_, i) => sentence(i)).join(' ');
  const markdown = `# Descaling a kettle\n\nDescaling a kettle is quick. Vinegar works.\n\n## Steps\n\n${long}\n`;
  const items = planEnglish(markdown);
  const r = rewrite(markdown, items, ['struct:paragraph:1']);
  t.same(r.appliedIds, ['struct:paragraph:1']);
  const html = renderPreview(markdown, r, 'en');
  const doc = html.slice(html.indexOf('<article'), html.indexOf('</article>'));
  const marked = [...doc.matchAll(/<div class="(?:new|changed|old)">([\s\S]*?)<\/div>/g)].map((m) => m[1]!.trim());
  t.ok(marked.length >= 2, `${marked.length} new paragraphs marked`);
  for (const m of marked) t.match(m, /^<p>Sentence \d+ /, 'each mark holds a paragraph of the text');
});

t.test('items: a suggested title is cut at a word boundary, never inside a word', async (t) => {
  const { cutAtWord } = await import('../../../services/apply/items.ts');
  const long = 'Descale espresso machine: How to Descale an Espresso Machine: A 30-Minute Routine';
  const cut = cutAtWord(long, 65);
  t.ok(cut.length <= 65, cut);
  t.ok(long.startsWith(cut) && !/[\p{L}\p{N}]/u.test(long.charAt(cut.length)), `"${cut}" ends at a word's end`);
  t.equal(cutAtWord('Short title', 65), 'Short title');
});

t.test('items: the keyword is never glued to the front of a title that lacks it', async (t) => {
  for (const title of ['How to Descale Your Kettle', 'Kettles', '', 'Descaling a kettle']) {
    const item = planEnglish(md, { title }).find((p) => p.item.id === 'meta:title')!.item;
    t.equal(item.after, title, `"${title}" is kept`);
    t.equal(item.noChange, true, `"${title}": nothing to change`);
  }
});

t.test('items: the FAQ block goes before a closing section, not after the sign-off', async (t) => {
  const closing = `# Klucze\n\nKlucz płaski ma dwa końce.\n\n## Rodzaje\n\nSą klucze płaskie i oczkowe.\n\n## Podsumowanie\n\nDziękujemy za lekturę.\n`;
  const plan = (markdown: string) =>
    planItems({
      markdown,
      language: 'pl',
      keyword: 'klucze',
      recommendations: [],
      paa: ['Jaki klucz?'],
      title: null,
    }).find((p) => p.item.id === 'struct:faq')!.edit;
  t.match(plan(closing), { kind: 'insert', placement: 'before', anchor: '## Podsumowanie' });
  t.match(plan(closing.replace('## Podsumowanie', '## Zestawy')), { kind: 'insert', placement: 'end' });
});
