/**
 * SERP settings from the environment, loaded by infra/config.ts (problems are collected there and
 * reported together):
 *   SERP_PROVIDER   none (default) | file | http
 *   SERP_FILE       file: the JSON file (see fileProvider.ts)
 *   SERP_HTTP_BASE_URL   http: default https://api.dataforseo.com
 *   SERP_HTTP_LOGIN, SERP_HTTP_PASSWORD   http: DataForSEO API credentials
 *   SERP_HTTP_TIMEOUT_MS http: per request, default 30000 (live SERPs take ~6 s on average)
 *   SERP_LOCATION_CODE   http: one location for every language (default: by language)
 *   SERP_DEPTH           http: organic results asked for, default 10
 */
import { envReader, type Env } from '../envReader.ts';
export type SerpSettings =
  | { provider: 'none' }
  | { provider: 'file'; file: string }
  | {
      provider: 'http';
      baseUrl: string;
      login: string;
      password: string;
      timeoutMs: number;
      locationCode: number | null;
      depth: number;
    };

export function loadSerpSettings(env: Env, problems: string[]): SerpSettings {
  const { int } = envReader(env, problems);
  const provider = env.SERP_PROVIDER || 'none';
  switch (provider) {
    case 'none':
      return { provider };
    case 'file': {
      const file = env.SERP_FILE;
      if (!file) problems.push('SERP_FILE must name the SERP JSON file when SERP_PROVIDER=file');
      return { provider, file: file ?? '' };
    }
    case 'http': {
      const baseUrl = (env.SERP_HTTP_BASE_URL || 'https://api.dataforseo.com').replace(/\/+$/, '');
      if (!/^https?:\/\/[^/]+/.test(baseUrl))
        problems.push(`SERP_HTTP_BASE_URL must be an http(s) URL, got "${baseUrl}"`);
      const login = env.SERP_HTTP_LOGIN ?? '';
      const password = env.SERP_HTTP_PASSWORD ?? '';
      if (!login || !password)
        problems.push('SERP_HTTP_LOGIN and SERP_HTTP_PASSWORD are required when SERP_PROVIDER=http');
      const location = env.SERP_LOCATION_CODE;
      return {
        provider,
        baseUrl,
        login,
        password,
        timeoutMs: int('SERP_HTTP_TIMEOUT_MS', 30_000, 1_000, 300_000),
        locationCode: location ? int('SERP_LOCATION_CODE', 0, 1, 99_999_999) : null,
        depth: int('SERP_DEPTH', 10, 1, 100),
      };
    }
    default:
      problems.push(`SERP_PROVIDER must be none, file or http, got "${provider}"`);
      return { provider: 'none' };
  }
}
