/**
 * SERP data from a JSON file (SERP_FILE), for offline work and tests:
 *   {"<keyword>": {"searchVolume": int, "serpOrganicCount": int, "organic": [{"url","title"}],
 *                  "paa": [str], "related": [str]}}
 * Keywords match case-insensitively (and with surrounding/inner whitespace collapsed). The file is
 * read and validated once, when the provider is created, so a bad file stops the service at start
 * with every problem listed rather than failing audits one by one. Extra fields are allowed (the
 * engine's CLI adds `file` to organic entries) and ignored.
 */
import { readFileSync } from 'node:fs';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { AppError } from '../../core/errors.ts';
import type { SerpData, SerpProvider } from './types.ts';

const Count = Type.Integer({ minimum: 0 });
const EntrySchema = Type.Object({
  searchVolume: Count,
  serpOrganicCount: Count,
  organic: Type.Array(Type.Object({ url: Type.String({ minLength: 1 }), title: Type.String() })),
  paa: Type.Array(Type.String()),
  related: Type.Array(Type.String()),
});
export const SerpFileSchema = Type.Record(Type.String(), EntrySchema);
export type SerpFile = Static<typeof SerpFileSchema>;

export const normaliseKeyword = (k: string): string => k.trim().replace(/\s+/g, ' ').toLowerCase();

const MAX_LISTED = 5;

/** Validates parsed JSON; returns the entries by normalised keyword or throws with every problem. */
export function parseSerpFile(data: unknown, source: string): Map<string, SerpData> {
  const fail = (problems: string[]) => {
    const more = problems.length > MAX_LISTED ? `\n- ... and ${problems.length - MAX_LISTED} more` : '';
    return new AppError(
      'config_error',
      `SERP file ${source} is invalid:\n- ${problems.slice(0, MAX_LISTED).join('\n- ')}${more}`,
    );
  };
  if (!Value.Check(SerpFileSchema, data)) {
    if (typeof data !== 'object' || data === null || Array.isArray(data))
      throw fail(['the file must hold a JSON object keyed by keyword']);
    // TypeBox reports a missing field twice (required, then its type): keep the first per path.
    const byPath = new Map<string, string>();
    for (const e of Value.Errors(SerpFileSchema, data))
      if (!byPath.has(e.path)) byPath.set(e.path, `${e.path || '/'}: ${e.message}`);
    throw fail([...byPath.values()]);
  }
  const entries = new Map<string, SerpData>();
  const seen = new Map<string, string>();
  const problems: string[] = [];
  for (const [keyword, e] of Object.entries(data)) {
    const key = normaliseKeyword(keyword);
    if (key === '') problems.push('an empty keyword');
    const before = seen.get(key);
    if (before !== undefined) problems.push(`"${keyword}" and "${before}" are the same keyword`);
    seen.set(key, keyword);
    entries.set(key, {
      searchVolume: e.searchVolume,
      serpOrganicCount: e.serpOrganicCount,
      organic: e.organic.map((o) => ({ url: o.url, title: o.title })),
      paa: [...e.paa],
      related: [...e.related],
    });
  }
  if (problems.length) throw fail(problems);
  return entries;
}

export function createFileSerpProvider(path: string): SerpProvider {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new AppError('config_error', `SERP file ${path} cannot be read: ${(e as Error).message}`);
  }
  const entries = parseSerpFile(data, path);
  return {
    name: 'file',
    lookup: async (keyword) => {
      const e = entries.get(normaliseKeyword(keyword));
      return e ? structuredClone(e) : null;
    },
    searchVolumes: async (keywords) =>
      new Map(keywords.map((k) => [k, entries.get(normaliseKeyword(k))?.searchVolume ?? null])),
  };
}
