import { API_VERSION } from '../../core/apiVersion.ts';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ConfigError, loadConfig, type Config } from '../../infra/config.ts';
import type { CrawlLimits } from '../../infra/http/crawler.ts';
import type { UrlGuard } from '../../infra/http/guard.ts';
import type { SerpProvider } from '../../infra/serp/index.ts';
import { AppError, isAppError } from '../../core/errors.ts';
import { HelpRequested, parseOptions, UsageError } from '../../infra/cli/options.ts';
import type { CompetitorInput, ContentFormat, EngineInput, SerpBenchmarkInput } from '../engine/types.ts';

/**
 * Offline audit for writers and docs pipelines (the engine's only file with I/O):
 *   audit-service audit FILE|URL [--keyword K] [--language L] [--serp-file F] [--title T]
 * (also `npm run -s audit -- ...`; `--help` prints the options).
 * FILE is .md, .txt or .html; a URL (http/https) is fetched by the service's guarded crawler
 * (infra/http), so the SSRF guard, the limits (CRAWL_*) and ALLOW_PRIVATE_ADDRESSES apply as in
 * the service, read by the service's config loader. The SERP file is the file provider's format
 * (infra/serp/fileProvider.ts, validated by it); organic entries are crawled like the service's
 * competitors, except those naming a local `file` (resolved next to the SERP file), which is read
 * instead. See docs/scoring.md, "Offline CLI".
 */

const USAGE = 'usage: audit-service audit FILE|URL [--keyword K] [--language L] [--serp-file F] [--title T]';

const HELP = `${USAGE}

Audits one article offline and prints its AuditResultV1 as JSON (no database, no credits).
  FILE|URL          a .md, .txt or .html file, or an http(s) page fetched by the service's crawler
  --keyword K       the target keyword (detected from the content when not given)
  --language L      the content's language code (detected when not given)
  --serp-file F     SERP data for the benchmark, in the file provider's format
  --title T         the title of a FILE (a page has its own)
`;

const isUrl = (s: string) => /^https?:\/\//i.test(s);

const formatOf = (file: string): ContentFormat => {
  const ext = extname(file).toLowerCase();
  if (ext === '.html' || ext === '.htm') return 'html';
  if (ext === '.md' || ext === '.markdown') return 'markdown';
  if (ext === '.txt') return 'text';
  throw new AppError('invalid_request', `unsupported file type "${ext}" (use .md, .txt or .html, or an http(s) URL)`);
};

const readText = (path: string, what: string): string => {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    throw new AppError('invalid_request', `cannot read ${what} ${path}: ${(e as Error).message}`);
  }
};

interface Crawl {
  guard: UrlGuard;
  limits: CrawlLimits;
  count: number;
  concurrency: number;
}

type RawSerpFile = Record<string, { organic: { url: string; file?: unknown }[] }>;

/** The CLI's extension of the file format: `file` on an organic entry names a local copy of the page. */
const localFiles = async (path: string, data: RawSerpFile, keyword: string): Promise<Map<string, string>> => {
  const { normaliseKeyword } = await import('../../infra/serp/fileProvider.ts');
  const key = Object.keys(data).find((k) => normaliseKeyword(k) === normaliseKeyword(keyword));
  const base = dirname(resolve(path));
  const out = new Map<string, string>();
  for (const o of key ? data[key]!.organic : [])
    if (typeof o.file === 'string' && o.file) out.set(o.url, resolve(base, o.file));
  return out;
};

/** SERP data from the file provider; competitors from local files or through the guarded crawler. */
const loadBenchmark = async (
  path: string,
  provider: SerpProvider,
  data: RawSerpFile,
  keyword: string,
  language: string,
  detected: boolean,
  crawl: Crawl,
): Promise<SerpBenchmarkInput> => {
  const serp = await provider.lookup(keyword, language);
  if (!serp) {
    const how = detected ? ' (the keyword was detected from the content; pass --keyword to choose the entry)' : '';
    throw new AppError('invalid_request', `the SERP file ${path} has no entry for "${keyword}"${how}`);
  }
  const files = await localFiles(path, data, keyword);
  // The top N distinct organic results, as the service takes them (SERP_COMPETITORS).
  const seen = new Set<string>();
  const top = serp.organic.filter((o) => !seen.has(o.url) && seen.add(o.url)).slice(0, crawl.count);
  const { crawlCompetitors } = await import('../../infra/http/competitors.ts');
  const { pages, failures } = await crawlCompetitors(
    top.filter((o) => !files.has(o.url)),
    {
      guard: crawl.guard,
      limits: crawl.limits,
      count: crawl.count,
      concurrency: crawl.concurrency,
    },
  );
  for (const f of failures) process.stderr.write(`note: competitor ${f.url} skipped: ${f.message}\n`);
  const fetched = new Map(pages.map((p) => [p.url, p.html] as const));
  const competitors: CompetitorInput[] = [];
  for (const o of top) {
    const file = files.get(o.url);
    if (file !== undefined) {
      const text = readText(file, 'the competitor file');
      const html = /\.html?$/i.test(file);
      competitors.push({ url: o.url, title: o.title, html: html ? text : null, text: html ? null : text });
    } else {
      const html = fetched.get(o.url);
      if (html !== undefined) competitors.push({ url: o.url, title: o.title, html });
    }
  }
  return {
    searchVolume: serp.searchVolume,
    serpOrganicCount: serp.serpOrganicCount,
    paa: serp.paa,
    related: serp.related,
    competitors,
  };
};

const OPTIONS = {
  keyword: { type: 'string' },
  language: { type: 'string' },
  'serp-file': { type: 'string' },
  title: { type: 'string' },
} as const;

type Options = { [K in keyof typeof OPTIONS]?: string };

const parseCommandLine = (argv: string[]): { target: string; opts: Options } => {
  const { values, positionals } = parseOptions(argv, OPTIONS, true);
  if (positionals.length !== 1)
    throw new UsageError(positionals.length ? `one FILE or URL, got ${positionals.length}` : 'no FILE or URL given');
  return { target: positionals[0]!, opts: values };
};

const configOf = (): Config => {
  try {
    return loadConfig(process.env);
  } catch (e) {
    if (e instanceof ConfigError) throw new AppError('config_error', e.problems.join('; '));
    throw e;
  }
};

/** The crawler's guard and limits; the HTTP client's side only when something is fetched. */
const crawlOf = async (config: Config, needsHttp: boolean): Promise<Crawl> => {
  const { timeoutMs, maxBytes, maxRedirects, competitorCount, competitorConcurrency } = config.crawl;
  // got-scraping and its browser fingerprints are most of the start-up of an audit of a file.
  const { createGuard } = needsHttp ? await import('../../infra/http/guard.ts') : { createGuard: null };
  return {
    guard: createGuard ? createGuard({ allowPrivateAddresses: config.allowPrivateAddresses }) : (null as never),
    limits: { timeoutMs, maxBytes, maxRedirects },
    count: competitorCount,
    concurrency: competitorConcurrency,
  };
};

/** The engine's input: the page fetched, or the file read. */
const inputOf = async (target: string, opts: Options, crawl: Crawl): Promise<EngineInput> => {
  const chosen = { keyword: opts.keyword ?? null, language: opts.language ?? null };
  if (!isUrl(target)) {
    const format = formatOf(target);
    return { content: readText(target, 'the file'), format, url: null, title: opts.title ?? null, ...chosen };
  }
  // Spec 4.2: a title goes with supplied content only; a page has its own.
  if (opts.title !== undefined)
    throw new AppError('invalid_request', '--title goes with a FILE only; a page has its own title');
  const { fetchPage } = await import('../../infra/http/crawler.ts');
  const page = await fetchPage(target, { guard: crawl.guard, limits: crawl.limits });
  return { content: page.html, format: 'html', url: target, title: null, ...chosen };
};

/** The SERP file's benchmark, for the keyword the audit will have (supplied or detected). */
const addBenchmark = async (input: EngineInput, serpFile: string, supplied: boolean, crawl: Crawl): Promise<void> => {
  // The file provider reads and validates the file (a bad one: config_error, every problem listed);
  // the raw JSON is read again only for its keys and the CLI's `file` fields.
  const [{ createSerpProvider }, { prepareAudit }] = await Promise.all([
    import('../../infra/serp/index.ts'),
    import('../engine/prepare.ts'),
  ]);
  const provider = createSerpProvider({ provider: 'file', file: serpFile });
  const data = JSON.parse(readText(serpFile, 'the SERP file')) as RawSerpFile;
  const keys = Object.keys(data);
  // The entry is the one of the audit's keyword (supplied or detected), as in the service; a file
  // with a single entry names the keyword itself when none is supplied.
  if (!supplied && keys.length === 1) input.keyword = keys[0]!;
  const prepared = prepareAudit(input);
  input.benchmark = await loadBenchmark(
    serpFile,
    provider,
    data,
    prepared.keyword,
    prepared.language,
    !input.keyword,
    crawl,
  );
};

const run = async (argv: string[]): Promise<void> => {
  const { target, opts } = parseCommandLine(argv);
  const serpFile = opts['serp-file'];
  const crawl = await crawlOf(configOf(), isUrl(target) || serpFile !== undefined);
  const input = await inputOf(target, opts, crawl);
  if (serpFile !== undefined) await addBenchmark(input, serpFile, Boolean(opts.keyword), crawl);
  // The engine (its language model and word lists) once the command line is good: --help and a
  // usage error answer at once.
  const [{ auditContent }, { toAuditResultV1 }] = await Promise.all([
    import('../engine/audit.ts'),
    import('../engine/resultV1.ts'),
  ]);
  const startedAt = new Date().toISOString();
  const result = auditContent(input);
  // A full AuditResultV1, as GET /audits/{id} returns it. An offline run has no job and costs
  // nothing: its id is derived from what was audited, and its report is the audited source.
  const source = isUrl(target) ? target : pathToFileURL(resolve(target)).href;
  const id = `local_${createHash('sha256').update(`${source}\u001f${result.input.keyword}\u001f${input.content}`).digest('hex').slice(0, 24)}`;
  const meta = { creditsCharged: 0, apiVersion: API_VERSION, reportUrl: source, shareUrl: null, shareExpiresAt: null };
  const v1 = toAuditResultV1(result, {
    id,
    createdAt: startedAt,
    completedAt: new Date().toISOString(),
    project: null,
    meta,
  });
  process.stdout.write(`${JSON.stringify(v1, null, 2)}\n`);
};

/** The offline audit; `argv` is what follows `audit`. Prints the result, or the error and exit 1. */
export async function auditMain(argv: string[]): Promise<void> {
  try {
    await run(argv);
  } catch (e) {
    if (e instanceof HelpRequested) process.stdout.write(HELP);
    else if (e instanceof UsageError) {
      process.stderr.write(`invalid_request: ${e.message}\n${USAGE}\n`);
      process.exitCode = 1;
    } else if (isAppError(e)) {
      process.stderr.write(`${e.code}: ${e.message}\n`);
      process.exitCode = 1;
    } else {
      process.stderr.write(`internal_error: ${(e as Error)?.stack ?? String(e)}\n`);
      process.exitCode = 1;
    }
  }
}

// Run as a program of its own (`node --import tsx services/offlineAudit/cli.ts`), not when imported.
if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) await auditMain(process.argv.slice(2));
