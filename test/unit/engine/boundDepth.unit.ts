import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { boundDepth, HARD_DEPTH, WRAPPER_DEPTH } from '../../../services/engine/html/boundDepth.ts';
import { repoRoot } from '../../../infra/local/kafkaJars.ts';

const dir = join(repoRoot, 'test/fixtures/engine/strong');

t.test('real pages come back byte for byte', async (t) => {
  const pages = readdirSync(dir).filter((f) => f.endsWith('.html'));
  t.ok(pages.length >= 2);
  for (const f of pages) {
    const html = readFileSync(join(dir, f), 'utf8');
    t.equal(boundDepth(html), html, f);
  }
});

t.test('wrappers past the cap lose their tags, not their text', async (t) => {
  const deep = 60;
  const html = `<html><body>${'<div>'.repeat(deep)}<p>one<br>two</p><ul><li>a<li>b</ul>${'</div>'.repeat(deep)}</body></html>`;
  const out = boundDepth(html);
  t.equal((out.match(/<div>/g) ?? []).length, WRAPPER_DEPTH - 2, 'divs up to the cap (html and body count)');
  t.equal((out.match(/<\/div>/g) ?? []).length, WRAPPER_DEPTH - 2, 'and as many end tags');
  t.match(out, '<p>one<br>two</p><ul><li>a<li>b</ul>', 'structure inside is kept whole');
});

t.test('no tag at all past the hard cap; a 20,000-deep chain in linear time', async (t) => {
  const depth = 20_000;
  const html = `${'<ul><li>'.repeat(depth)}x${'</li></ul>'.repeat(depth)}`;
  const started = process.cpuUsage();
  const out = boundDepth(html);
  const used = process.cpuUsage(started);
  t.equal((out.match(/<ul>/g) ?? []).length, HARD_DEPTH / 2, 'lists up to the hard cap');
  t.ok(out.includes('x'), 'the text stays');
  t.ok((used.user + used.system) / 1000 < 2000, 'well under two seconds of CPU');
});
