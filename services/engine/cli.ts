import { readFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { isAppError } from '../shared/errors.ts';
import { auditContent } from './audit.ts';
import type { CompetitorInput, ContentFormat, EngineInput, SerpBenchmarkInput } from './types.ts';

/**
 * Offline audit for writers and docs pipelines:
 *   npm run -s audit -- FILE [--keyword K] [--language L] [--serp-file F] [--title T]
 * FILE is .md, .txt or .html. The SERP file (docs/scoring.md) is keyed by keyword; its organic
 * entries may name a local `file` (resolved next to the SERP file). URLs need the crawler.
 */

const USAGE = 'usage: npm run -s audit -- FILE [--keyword K] [--language L] [--serp-file F] [--title T]';

interface SerpFileEntry {
  searchVolume?: number;
  serpOrganicCount?: number;
  organic?: { url: string; title?: string; file?: string }[];
  paa?: string[];
  related?: string[];
}

const fail = (code: string, message: string): never => {
  process.stderr.write(`${code}: ${message}\n`);
  process.exit(1);
};

const isUrl = (s: string) => /^https?:\/\//i.test(s);

const formatOf = (file: string): ContentFormat => {
  const ext = extname(file).toLowerCase();
  if (ext === '.html' || ext === '.htm') return 'html';
  if (ext === '.md' || ext === '.markdown') return 'markdown';
  if (ext === '.txt') return 'text';
  return fail('invalid_request', `unsupported file type "${ext}" (use .md, .txt or .html)`);
};

const readSerp = (path: string, keyword: string | null): SerpBenchmarkInput => {
  let data: Record<string, SerpFileEntry>;
  try {
    data = JSON.parse(readFileSync(path, 'utf8')) as Record<string, SerpFileEntry>;
  } catch (e) {
    return fail('invalid_request', `cannot read the SERP file ${path}: ${(e as Error).message}`);
  }
  const keys = Object.keys(data).sort();
  const key = keyword && data[keyword] ? keyword : keys.find((k) => k.toLowerCase() === (keyword ?? '').toLowerCase()) ?? (keys.length === 1 ? keys[0] : undefined);
  const entry = key ? data[key] : undefined;
  if (!entry) return fail('invalid_request', `the SERP file has no entry for "${keyword ?? ''}" (keys: ${keys.join(', ')})`);
  const base = dirname(resolve(path));
  const competitors: CompetitorInput[] = [];
  for (const o of entry.organic ?? []) {
    if (!o.file) {
      process.stderr.write(`note: ${o.url} has no local file; fetching URLs needs the crawler; not available yet. Skipped.\n`);
      continue;
    }
    const text = readFileSync(resolve(base, o.file), 'utf8');
    const html = /\.html?$/i.test(o.file);
    competitors.push({ url: o.url, title: o.title ?? null, html: html ? text : null, text: html ? null : text });
  }
  return {
    searchVolume: entry.searchVolume ?? 0,
    serpOrganicCount: entry.serpOrganicCount ?? 0,
    paa: entry.paa ?? [],
    related: entry.related ?? [],
    competitors,
  };
};

const main = (argv: string[]): void => {
  const opts: Record<string, string> = {};
  const files: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] ?? '';
    if (a.startsWith('--')) {
      const v = argv[i + 1];
      if (v === undefined) fail('invalid_request', `${a} needs a value\n${USAGE}`);
      opts[a.slice(2)] = v as string;
      i++;
    } else files.push(a);
  }
  const target = files[0];
  if (!target || files.length > 1) return fail('invalid_request', USAGE);
  if (isUrl(target)) return fail('invalid_request', 'fetching URLs needs the crawler; not available yet. Save the page and pass the file.');
  const format = formatOf(target);
  let content: string;
  try {
    content = readFileSync(target, 'utf8');
  } catch (e) {
    return fail('invalid_request', `cannot read ${target}: ${(e as Error).message}`);
  }
  const keyword = opts.keyword ?? null;
  const input: EngineInput = {
    content,
    format,
    url: null,
    title: opts.title ?? null,
    keyword,
    language: opts.language ?? null,
    benchmark: opts['serp-file'] ? readSerp(opts['serp-file'], keyword) : null,
  };
  try {
    process.stdout.write(`${JSON.stringify(auditContent(input), null, 2)}\n`);
  } catch (e) {
    if (isAppError(e)) fail(e.code, e.message);
    throw e;
  }
};

main(process.argv.slice(2));
