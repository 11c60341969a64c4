import type { SerpProvider } from './types.ts';

/** The offline default: no SERP data, so the audit's benchmark is null. */
export const noneSerpProvider = (): SerpProvider => ({
  name: 'none',
  lookup: async () => null,
  searchVolumes: async (keywords) => new Map(keywords.map((k) => [k, null])),
});
