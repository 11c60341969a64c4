import t from 'tap';
import { extractHtml } from '../../../services/engine/html/extract.ts';
import { articles, read } from '../../fixtures/engine/corpus.ts';

// A blog page without <article>/<main>: menu, sidebar, byline, loose text in a <div>, comments,
// footer. The old hand-written rules would have taken the whole <body>.
const para = (n: number) =>
  `<p>Descaling an espresso machine removes limescale from the boiler and the pipes, and it keeps water flowing at the right pressure and temperature. Step ${n} matters, because scale builds up faster with hard water.</p>`;
const page = `<!doctype html><html lang="en"><head><title>How to descale an espresso machine | Coffee Blog</title>
<meta name="description" content="Descale in 30 minutes with citric acid.">
<link rel="canonical" href="https://coffee.example/descale-espresso-machine">
<meta property="article:published_time" content="2025-02-01">
</head><body>
<div id="top"><div class="menu"><a href="/shop">Shop</a> <a href="/blog">Blog</a> <a href="/contact">Contact</a></div></div>
<div class="wrapper"><div class="sidebar"><h3>Popular posts</h3><ul><li><a href="/x">Milk frothing</a></li><li><a href="/y">Grinder settings</a></li></ul></div>
<div class="post-content"><h1>How to descale an espresso machine</h1><div class="byline">By <a rel="author" href="/anna">Anna Nowak</a></div>
<div>Descaling an espresso machine takes 30 minutes and a 5% citric acid solution; it removes limescale from the boiler.</div>
Loose text right in the content div explains why limescale matters for the taste of coffee and for the life of the pump, with <em>emphasis</em>.
${para(1)}<h2>What you need</h2>${para(2)}<ul><li>Citric acid, 20 g</li><li>Water, 1 litre</li></ul>${para(3)}<h3>Rinse twice</h3>${para(4)}${para(5)}
<figure><img src="/img/descale.jpg" alt="Descaling solution in the tank"></figure><p>Sources: <a href="https://www.example.gov/water-hardness">water hardness data</a>.</p></div>
<div class="comments"><h3>Comments</h3><p>Great post, thank you so much for writing this, it was really helpful for me and my machine!</p><p>Thanks, this helped.</p></div></div>
<footer><a href="/about">About</a> <a href="/privacy">Privacy</a></footer><script>window.track = 1;</script></body></html>`;

t.test('Readability picks the article; navigation, sidebar, comments and footer stay out', async (t) => {
  const { blocks, signals } = extractHtml(page, 'https://coffee.example/descale-espresso-machine');
  const text = blocks.map((b) => b.text).join('\n');
  t.match(text, /takes 30 minutes/, 'a <div> of text is a paragraph');
  t.match(text, /Loose text right in the content div/, 'loose text in the content <div> is a paragraph');
  for (const out of ['Popular posts', 'Milk frothing', 'Great post', 'Thanks, this helped', 'Privacy', 'Shop'])
    t.notMatch(text, out, `"${out}" is not main content`);
  t.same(
    blocks.filter((b) => b.kind === 'heading').map((b) => `${b.level} ${b.text}`),
    ['1 How to descale an espresso machine', '2 What you need', '3 Rinse twice'],
    'headings keep their source levels, H1 included',
  );
  t.ok(
    blocks.some((b) => b.kind === 'list' && b.items.length === 2),
    'the list',
  );
  t.ok(
    blocks.some((b) => b.kind === 'image' && b.items[0] === 'Descaling solution in the tank'),
    'the figure',
  );
  for (const b of blocks) t.ok(b.raw && page.includes(b.raw), `verbatim source slice: ${b.raw.slice(0, 40)}`);
  t.ok(
    signals.mainTextChars < signals.bodyTextChars * 0.9,
    'boilerplate share: extracted text is less than the body text',
  );
  t.equal(signals.titleTag, 'How to descale an espresso machine | Coffee Blog');
  t.equal(signals.metaDescription, 'Descale in 30 minutes with citric acid.');
  t.equal(signals.canonical, 'https://coffee.example/descale-espresso-machine');
  t.equal(signals.langAttr, 'en');
  t.equal(signals.h1Count, 1);
  t.equal(signals.datePublished, '2025-02-01');
  t.equal(signals.author, 'Anna Nowak', 'the byline Readability found');
  t.ok(
    signals.links.some((l) => l.href === 'https://www.example.gov/water-hardness' && !l.internal),
    'a source link in the content',
  );
  t.ok(
    signals.links.some((l) => l.href === '/privacy' && l.rel === 'site'),
    'site links come from the whole page',
  );
  t.notOk(
    signals.links.some((l) => l.href === '/x'),
    'sidebar links are not content links',
  );
  t.same(signals.images, [{ src: '/img/descale.jpg', alt: 'Descaling solution in the tank' }]);
  t.ok(signals.inlineScriptBytes > 0);
  t.equal(JSON.stringify(extractHtml(page, null)), JSON.stringify(extractHtml(page, null)), 'deterministic');
});

t.test('a near-empty page falls back to the body as it stands', async (t) => {
  const { blocks } = extractHtml('<html><body><nav>menu</nav><p>Too short.</p></body></html>', null);
  t.same(
    blocks.map((b) => b.text),
    ['Too short.'],
  );
});

t.test('the HTML corpus: every block is a verbatim slice; cart buttons are read from the page', async (t) => {
  for (const a of articles.filter((x) => x.file.endsWith('.html'))) {
    for (const v of ['strong', 'weak'] as const) {
      const html = read(v, a);
      const { blocks, signals } = extractHtml(html, null);
      t.ok(blocks.length > 5, `${v} ${a.id}: ${blocks.length} blocks`);
      t.equal(blocks.filter((b) => b.kind === 'heading' && b.level === 1).length, 1, 'the H1 is kept');
      t.ok(
        blocks.every((b) => b.raw && html.includes(b.raw)),
        'verbatim slices',
      );
      if (a.profile === 'product')
        t.ok(
          signals.actions.some((x) => /koszyka/.test(x)),
          'the add-to-cart button',
        );
    }
  }
});
