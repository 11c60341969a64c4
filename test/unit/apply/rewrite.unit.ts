import t from 'tap';
import { planItems } from '../../../services/apply/items.ts';
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
  for (const s of ['Descale monthly.', 'Use 2 cups of vinegar [1].', 'See [the guide](https://x.example)'])
    t.notOk(needsAuthorData(s), s);
});

t.test('items: flags and stable ids', async (t) => {
  const recs = [
    rec({ before: 'Kettles collect limescale.', after: 'Kettles collect limescale from hard water.' }),
    rec({ before: 'Hard water', after: 'It took [fill in: minutes] minutes' }),
    rec({ before: '', after: 'Be bold.' }),
  ];
  const items = planItems({
    markdown: md,
    language: 'en',
    keyword: 'descaling a kettle',
    recommendations: recs,
    paa: ['How often?'],
    title: 'Descaling a kettle',
  });
  const by = Object.fromEntries(items.map((p) => [p.item.id, p.item]));
  t.equal(by['rec:0']!.selectable, true);
  t.match(by['rec:1'], { authorDataOnly: true, selectable: false });
  t.match(
    by['rec:2'],
    { editorialOnly: true, selectable: false },
    'an addition with no place in the text is a whole-text decision',
  );
  t.match(by['struct:faq'], { authorDataOnly: true, selectable: false }, 'FAQ answers are the author’s');
  t.same(
    planItems({
      markdown: md,
      language: 'en',
      keyword: 'descaling a kettle',
      recommendations: recs,
      paa: ['How often?'],
      title: 'Descaling a kettle',
    }).map((p) => p.item.id),
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
  const recs = [
    rec({ before: 'Kettles collect limescale.', after: 'Kettles collect limescale from hard water.' }),
    rec({ before: 'collect limescale', after: 'gather scale' }),
    rec({ before: 'Not in the text.', after: 'Whatever.' }),
  ];
  const items = planItems({
    markdown: md,
    language: 'en',
    keyword: 'descaling a kettle',
    recommendations: recs,
    paa: [],
    title: 'Kettles',
  });
  const r = rewrite(md, items, ['rec:0', 'rec:1', 'rec:2', 'meta:title', 'unknown']);
  t.same(r.appliedIds, ['rec:0', 'meta:title']);
  t.same(
    r.skipped.map((s) => [s.id, s.reason]),
    [
      ['rec:1', 'overlapping'],
      ['rec:2', 'not_found'],
    ],
  );
  t.match(r.markdown, /Kettles collect limescale from hard water\./);
  t.match(r.markdown, /!\[A kettle\]\(https:\/\/img\.example\/k\.png\)/, 'images stay Markdown images');
  t.equal(r.title, 'Descaling a kettle: Kettles');
  t.equal(r.description, null);
});

t.test('preview: word diff highlights, sanitised, a CSP without script', async (t) => {
  const hostile = `${md}\n<script>alert(1)</script><img src=x onerror="alert(2)">`;
  const items = planItems({
    markdown: hostile,
    language: 'en',
    keyword: 'descaling a kettle',
    recommendations: [rec({ before: 'ten minutes', after: 'about ten minutes' })],
    paa: [],
    title: null,
  });
  const r = rewrite(hostile, items, ['rec:0']);
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
  const recs = [
    rec({ before: 'Kettles collect limescale.', after: 'Kettles collect limescale from hard water.' }),
    rec({ before: 'Hard water leaves deposits.', after: 'Deposits.' }),
  ];
  const items = planItems({
    markdown: md,
    language: 'en',
    keyword: 'descaling a kettle',
    recommendations: recs,
    paa: [],
    title: 'Descaling a kettle',
  });
  // A scorer that counts words: the second item shortens the text, so it lowers the score.
  const words = (s: string) => s.split(/\s+/).filter(Boolean).length;
  const r = rewrite(md, items, ['rec:0', 'rec:1'], (text) => words(text));
  t.same(r.appliedIds, ['rec:0']);
  t.match(r.skipped, [{ id: 'rec:1', reason: 'lowers_score' }]);
  t.match(r.markdown, /from hard water/);
  t.match(r.markdown, /Hard water leaves deposits\./, 'the skipped item left the text as it was');
  t.same(rewrite(md, items, ['rec:0', 'rec:1']).appliedIds, ['rec:0', 'rec:1'], 'without a scorer, no guard');
});

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
  const recs = [
    rec({
      before: '',
      after: '## What is it?\n\nIt is [fill in: a one-sentence definition].',
      insertAt: { placement: 'end', anchor: '' } as Recommendation['insertAt'],
    }),
    rec({ before: 'Hard water', after: 'It took [fill in: your own measured minutes]' }),
  ];
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
  t.match(off['rec:0']!.item, { authorDataOnly: true, selectable: false }, 'without the model: the author’s');
  t.match(
    on['rec:0'],
    { item: { authorDataOnly: false, selectable: true }, write: true },
    'with the model: written by it',
  );
  t.match(on['struct:faq'], { item: { selectable: true }, write: true }, 'the FAQ answers too');
  t.match(
    on['rec:1']!.item,
    { authorDataOnly: true, selectable: false },
    'first-hand facts stay authorDataOnly even with the model',
  );
});
