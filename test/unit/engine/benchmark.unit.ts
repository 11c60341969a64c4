import t from 'tap';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { auditContent } from '../../../services/engine/audit.ts';
import { buildBench } from '../../../services/engine/benchmark.ts';
import { MAX_COMPETITOR_CHARS } from '../../../services/engine/competitors.ts';
import { prepareDocument } from '../../../services/engine/prepare.ts';
import type { SerpBenchmarkInput } from '../../../services/engine/types.ts';
import { byId, CORPUS_DIR, inputOf } from '../../fixtures/engine/corpus.ts';

const serpDir = join(CORPUS_DIR, 'serp');
const serp = (): SerpBenchmarkInput => {
  const file = JSON.parse(readFileSync(join(serpDir, 'serp-descale.json'), 'utf8')) as Record<
    string,
    {
      searchVolume: number;
      serpOrganicCount: number;
      organic: { url: string; title: string; file: string }[];
      paa: string[];
      related: string[];
    }
  >;
  const e = file['descale espresso machine']!;
  return {
    searchVolume: e.searchVolume,
    serpOrganicCount: e.serpOrganicCount,
    paa: e.paa,
    related: e.related,
    competitors: e.organic.map((o) => ({
      url: o.url,
      title: o.title,
      text: readFileSync(join(serpDir, o.file), 'utf8'),
    })),
  };
};

t.test('a SERP benchmark: competitors scored with the same function, off-referent pages excluded', async (t) => {
  const a = byId('en-howto-descale');
  const r = auditContent(inputOf('weak', a, { benchmark: serp() }));
  const b = r.benchmark!;
  t.equal(b.keyword, a.keyword);
  t.equal(b.searchVolume, 5400);
  t.same(b.paa, serp().paa, 'PAA passes through');
  const offTopic = b.competitors.find((c) => c.url.includes('android-dev'))!;
  t.ok(offTopic.excluded, 'the Android "Espresso" page is about a different referent');
  t.match(offTopic.reason, /different referent/);
  t.equal(offTopic.cqs, null);
  const included = b.competitors.filter((c) => !c.excluded);
  t.equal(included.length, 3);
  const avg = included.reduce((s, c) => s + c.cqs!, 0) / included.length;
  t.equal(r.summary!.top10AvgCqs, Math.round(avg * 10) / 10, 'top10AvgCqs is the mean of the included competitors');
  t.ok(
    r.recommendations.some((x) => x.competitorUrls.length > 0),
    'recommendations cite competitors that do what they ask',
  );
  for (const x of r.recommendations)
    for (const c of x.competitorUrls) t.notOk(c.url.includes('android-dev'), 'never cites an excluded page');
  t.equal(
    JSON.stringify(r),
    JSON.stringify(auditContent(inputOf('weak', a, { benchmark: serp() }))),
    'deterministic with a benchmark too',
  );
  t.equal(auditContent(inputOf('weak', a)).summary!.top10AvgCqs, null, 'null without a benchmark');
});

// No network here: without ALLOW_PRIVATE_ADDRESSES the guard refuses a loopback URL before connecting
// (fetching is tested against a local server in test/int/engine/cli.int.ts).
const env = { ...process.env };
delete env.ALLOW_PRIVATE_ADDRESSES;
const cli = (args: string[]) =>
  spawnSync(process.execPath, ['--import', 'tsx', 'services/offlineAudit/cli.ts', ...args], {
    encoding: 'utf8',
    cwd: join(CORPUS_DIR, '..', '..', '..'),
    env,
  });

t.test('CLI: prints the result JSON for a file, with a SERP file of local competitors', async (t) => {
  const out = cli([
    join(CORPUS_DIR, 'strong', 'en-howto-descale.md'),
    '--keyword',
    'descale espresso machine',
    '--serp-file',
    join(serpDir, 'serp-descale.json'),
  ]);
  t.equal(out.status, 0, out.stderr);
  const r = JSON.parse(out.stdout) as {
    input: { keyword: string };
    benchmark: { competitors: unknown[] };
    summary: { top10AvgCqs: number };
  };
  t.equal(r.input.keyword, 'descale espresso machine');
  t.equal(r.benchmark.competitors.length, 4);
  t.type(r.summary.top10AvgCqs, 'number');
});

t.test('CLI: exit 1 with "<errorCode>: <message>" when the audit cannot run', async (t) => {
  const url = cli(['http://127.0.0.1:8080/page']);
  t.equal(url.status, 1);
  t.match(url.stderr, /^crawl_failed: the address is blocked: .*127\.0\.0\.1 is not public/);
  const csi = cli([join(CORPUS_DIR, 'strong', 'en-howto-descale.md'), '--keyword', 'how to']);
  t.equal(csi.status, 1);
  t.match(csi.stderr, /^csi_failed: /);
  const lang = cli([join(CORPUS_DIR, 'strong', 'en-glossary-compound-interest.md'), '--language', 'pl']);
  t.equal(lang.status, 0);
  t.equal((JSON.parse(lang.stdout) as { input: { language: string } }).input.language, 'pl');
  void execFileSync;
});

t.test('a competitor page too large to analyse is left out with its reason, the others count as before', async (t) => {
  const a = byId('en-howto-descale');
  const base = serp();
  const huge = `<html><body><article>${'<p>Descale the espresso machine with citric acid and rinse it twice.</p>'.repeat(16_000)}</article></body></html>`;
  t.ok(huge.length > MAX_COMPETITOR_CHARS, `${huge.length} characters`);
  const withHuge = {
    ...base,
    competitors: [...base.competitors, { url: 'https://huge.example/page', title: 'Huge', html: huge }],
  };
  const r = auditContent(inputOf('weak', a, { benchmark: withHuge }));
  const left = r.benchmark!.competitors.find((c) => c.url === 'https://huge.example/page')!;
  t.same([left.excluded, left.cqs, left.reason], [true, null, 'too large to analyse']);
  const plain = auditContent(inputOf('weak', a, { benchmark: base }));
  t.equal(r.summary!.top10AvgCqs, plain.summary!.top10AvgCqs, 'the average of the measured pages is unchanged');
});

t.test("a SERP's pages are read once per language: apply's guard scores revisions against one SERP", async (t) => {
  const a = byId('en-howto-descale');
  const p = prepareDocument(inputOf('weak', a, {}));
  const s = serp();
  const first = buildBench(s, p.doc, p.kw, p.an, p.lex);
  const again = buildBench(s, p.doc, p.kw, p.an, p.lex);
  t.ok(first.comps.length > 0);
  first.comps.forEach((c, i) => t.equal(again.comps[i]!.doc, c.doc, 'the same read of the page'));
  t.equal(JSON.stringify(again.targets), JSON.stringify(first.targets), 'and the same targets');
  const copy = buildBench(serp(), p.doc, p.kw, p.an, p.lex);
  t.not(copy.comps[0]!.doc, first.comps[0]!.doc, 'another SERP object is read anew');
  t.equal(
    JSON.stringify(copy.comps.map((c) => [c.url, [...c.terms]])),
    JSON.stringify(first.comps.map((c) => [c.url, [...c.terms]])),
  );
});
