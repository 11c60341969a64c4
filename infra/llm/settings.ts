import type { Env } from '../envReader.ts';
import { envReader } from '../envReader.ts';

/** The optional writer model of apply (issue 13 point 7): an OpenAI-compatible Chat Completions API. */
export interface LlmSettings {
  /** Base URL; requests go to `${url}/chat/completions`. */
  url: string;
  model: string;
  /** Sent as `Authorization: Bearer <key>` when set. */
  apiKey: string | null;
  timeoutMs: number;
}

/** APPLY_LLM_URL and APPLY_LLM_MODEL together turn the port on; neither (the default) leaves it off. */
export function loadLlmSettings(env: Env, problems: string[]): LlmSettings | null {
  const { str, int } = envReader(env, problems);
  const url = str('APPLY_LLM_URL', '').replace(/\/+$/, '');
  const model = str('APPLY_LLM_MODEL', '');
  const timeoutMs = int('APPLY_LLM_TIMEOUT_MS', 60_000, 100, 600_000);
  if (!url && !model) return null;
  if (!url || !model) {
    problems.push('APPLY_LLM_URL and APPLY_LLM_MODEL go together: set both to use a writer model, or neither');
    return null;
  }
  if (!/^https?:\/\/[^\s]+$/.test(url)) problems.push(`APPLY_LLM_URL must be an http(s) URL, got "${url}"`);
  return { url, model, apiKey: env.APPLY_LLM_KEY || null, timeoutMs };
}
