/**
 * Re-scoring a recommendation's change without re-extracting the page (html/extract.ts,
 * reextractHtml) must give exactly what a full extraction of the changed page gives: the same
 * blocks, the same page signals, the same CQS. Checked for every change any finding proposes, on
 * every HTML article of the corpus, the corpus's Markdown articles published as HTML pages, and the
 * benchmark's 2,000-word page; the share of changes that take the short path is reported.
 */
import t from 'tap';
import { syntheticPage } from '../../../bench/engine.ts';
import { applyChange, snippetToHtml } from '../../../services/engine/apply.ts';
import { runAudit } from '../../../services/engine/audit.ts';
import { parseContent, reparseChange, type ParsedContent } from '../../../services/engine/document.ts';
import type { Change } from '../../../services/engine/types.ts';
import { articles, read } from '../../fixtures/engine/corpus.ts';

const asPage = (md: string): string =>
  `<!doctype html><html><head><title>${md.split('\n')[0]!.replace(/^#\s*/, '')}</title></head><body><nav><a href="/">Home</a></nav><main><article>\n${md
    .split(/\n{2,}/)
    .map((b) => snippetToHtml(b))
    .join('\n')}\n</article></main><footer><a href="/privacy">Privacy</a></footer></body></html>`;

const pages: { name: string; content: string; keyword: string }[] = [
  { name: 'bench 2,000 words', content: syntheticPage(2000), keyword: 'descale espresso machine' },
];
for (const a of articles) {
  for (const v of ['strong', 'weak'] as const) {
    const src = read(v, a);
    pages.push({ name: `${v}/${a.file}`, content: a.file.endsWith('.html') ? src : asPage(src), keyword: a.keyword });
  }
}

const view = (p: ParsedContent) => ({
  blocks: p.blocks.map((b) => [b.kind, b.level, b.text, b.items, b.raw.length > 0, b.src?.at]),
  signals: p.signals,
  text: p.text,
});

t.test('the short path gives what a full extraction of the changed page gives', async (t) => {
  let short = 0;
  let whole = 0;
  for (const { name, content, keyword } of pages) {
    const run = runAudit({ content, url: null, keyword });
    const prev = parseContent(content, 'html', null);
    const seen = new Set<string>();
    for (const o of run.scored.outcomes) {
      for (const f of o.findings) {
        const change: Change | null = f.change;
        if (!change || seen.has(JSON.stringify(change))) continue;
        seen.add(JSON.stringify(change));
        let changed: string;
        try {
          changed = applyChange(content, 'html', change);
        } catch {
          continue;
        }
        const fast = reparseChange(prev, content, changed, change);
        if (!fast) {
          whole++;
          continue;
        }
        short++;
        const label = `${name} ${o.id} ${change.kind}`;
        const full = parseContent(changed, 'html', null);
        t.same(view(fast), view(full), `${label}: blocks and signals`);
        t.equal(run.rescore(changed, change).cqsRaw, run.rescore(changed).cqsRaw, `${label}: CQS`);
      }
    }
  }
  t.ok(short > whole, `most changes take the short path (${short} short, ${whole} re-extracted)`);
  t.comment(`${short} changes re-scored on the extracted blocks, ${whole} by a full re-extraction`);
});

t.test('a change it cannot vouch for falls back to a full re-extraction', async (t) => {
  const page =
    '<!doctype html><html><head><title>Descaling</title></head><body><article><h1>Descaling</h1>' +
    '<p>Descale an espresso machine every month with citric acid, which removes limescale from the boiler and pipes.</p>' +
    '<p>Rinse the tank twice with fresh water after descaling, then pull two blank shots to flush the group head.</p></article></body></html>';
  const prev = parseContent(page, 'html', null);
  const cases: Change[] = [
    { kind: 'replace', before: 'citric acid', after: '<a href="https://example.com">citric acid</a>' },
    { kind: 'replace', before: 'pipes.</p>\n<p>Rinse', after: 'pipes. Rinse' },
    { kind: 'replace', before: 'limescale from the boiler', after: 'limescale</p><p>from the boiler' },
    {
      kind: 'insert',
      placement: 'end',
      anchor: '',
      after: '## More\n\nText about descaling that goes at the end of the page.',
    },
    { kind: 'insert', placement: 'after', anchor: 'nothing like this', after: 'x' },
    { kind: 'insert', placement: 'after', anchor: '<h1>Descaling</h1>', after: 'Descaling removes limescale.' },
    { kind: 'insert', placement: 'after', anchor: 'from the boiler', after: 'A paragraph in the middle of another.' },
    { kind: 'insert', placement: 'before', anchor: '<p>Rinse', after: '## Descaling' },
  ];
  for (const c of cases) {
    let changed: string;
    try {
      changed = applyChange(page, 'html', c);
    } catch {
      changed = page;
    }
    t.equal(reparseChange(prev, page, changed, c), null, JSON.stringify(c));
  }
  const ok: Change = { kind: 'replace', before: 'every month', after: 'every four weeks' };
  const changed = applyChange(page, 'html', ok);
  t.same(
    view(reparseChange(prev, page, changed, ok)!),
    view(parseContent(changed, 'html', null)),
    'a plain text edit takes the short path',
  );
});
