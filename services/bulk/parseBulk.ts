import {
  refuseResolvingToPrivate,
  validateAuditUrl,
  validateWebhookUrl,
  type AcceptancePolicy,
} from '../../infra/http/validateUrl.ts';
import { AppError } from '../../core/errors.ts';
import { samePageKey } from '../../infra/http/pageIdentity.ts';
import { storableText } from '../../infra/postgres/storableText.ts';
import { charCount, KEYWORD_MAX_CHARS } from '../pipeline/limits.ts';
import { projectName } from '../pipeline/parseSubmission.ts';

/** Spec 4.4 / 8: 1 to 100 entries per request. */
export const BULK_MAX_URLS = 100;
/** Spec 7: invalidUrls[] holds up to the first 5 rejected entries. */
export const INVALID_URLS_LISTED = 5;
const FIELDS = ['urls', 'project', 'webhookUrl'] as const;

export interface BulkEntryInput {
  url: string;
  keyword: string | null;
}

export interface BulkInput {
  entries: BulkEntryInput[];
  project: string | null;
  webhookUrl: string | null;
}

const invalid = (message: string, extra: Record<string, unknown> = {}) =>
  new AppError('invalid_request', message, extra);

/**
 * POST /audits/bulk body → the batch (spec 4.4, 7). The whole batch is refused on the first broken
 * rule, with the spec's exact messages for the list; every entry is checked before the answer, so
 * the count in `Invalid URLs in the list (n)` covers them all while invalidUrls[] lists the first 5.
 * Each address and the webhookUrl get the checks of POST /audits, their host's DNS answer included
 * (spec 4.2, 4.4 rule 8, 6.1). Duplicates (the same page however written: infra/http/pageIdentity.ts)
 * are removed, the first occurrence kept with its address and keyword.
 */
export async function parseBulkSubmission(body: unknown, policy: AcceptancePolicy): Promise<BulkInput> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw invalid('urls must be a non-empty array');
  const raw = body as Record<string, unknown>;
  const unknownField = Object.keys(raw).find((k) => !(FIELDS as readonly string[]).includes(k));
  if (unknownField !== undefined)
    throw invalid(`Unknown field ${JSON.stringify(unknownField.slice(0, 40))} (the fields are ${FIELDS.join(', ')})`, {
      field: unknownField,
    });
  const urls = raw.urls;
  if (!Array.isArray(urls) || urls.length === 0) throw invalid('urls must be a non-empty array', { field: 'urls' });
  if (urls.length > BULK_MAX_URLS) throw invalid(`Too many URLs (max ${BULK_MAX_URLS} per request)`, { field: 'urls' });
  for (const item of urls) {
    if (typeof item === 'string') continue;
    if (typeof item !== 'object' || item === null || Array.isArray(item))
      throw invalid('each item must be a string or an object with a url', { field: 'urls' });
    if (typeof (item as { url?: unknown }).url !== 'string')
      throw invalid('each item needs a string url', { field: 'urls' });
  }

  const checked = (urls as (string | { url: string; keyword?: unknown })[]).map((item) => checkEntry(item, policy));
  await refuseResolvingToPrivateHosts(checked, policy);

  const rejected = checked.filter((e) => e.error !== undefined).map((e) => ({ url: e.given, error: e.error! }));
  const entries: BulkEntryInput[] = [];
  const seen = new Set<string>();
  for (const { url, keyword } of checked) {
    if (!url) continue;
    const key = samePageKey(url);
    if (seen.has(key)) continue;
    seen.add(key);
    entries.push({ url: url.href, keyword: keyword ?? null });
  }
  if (rejected.length > 0) {
    throw invalid(`Invalid URLs in the list (${rejected.length})`, {
      field: 'urls',
      invalidUrls: rejected.slice(0, INVALID_URLS_LISTED),
    });
  }
  const project = raw.project === undefined || raw.project === null ? null : projectName(raw.project);
  const webhookUrl =
    raw.webhookUrl === undefined || raw.webhookUrl === null ? null : validateWebhookUrl(raw.webhookUrl, policy);
  if (webhookUrl !== null) await refuseResolvingToPrivate('webhookUrl', webhookUrl, policy);
  return { entries, project, webhookUrl };
}

interface CheckedEntry {
  given: string;
  url?: URL;
  keyword?: string | null;
  error?: string;
}

/** An entry's address and keyword as POST /audits checks them, without I/O; a refusal is kept, not thrown. */
function checkEntry(item: string | { url: string; keyword?: unknown }, policy: AcceptancePolicy): CheckedEntry {
  const given = typeof item === 'string' ? item : item.url;
  try {
    const url = new URL(validateAuditUrl(given, policy));
    return { given, url, keyword: typeof item === 'string' ? null : entryKeyword(item) };
  } catch (e) {
    if (!(e instanceof AppError)) throw e;
    return { given, error: e.message };
  }
}

/** The DNS half of POST /audits' check, asked once per host name (a batch is usually one site). */
async function refuseResolvingToPrivateHosts(entries: CheckedEntry[], policy: AcceptancePolicy): Promise<void> {
  const verdicts = new Map<string, Promise<string | undefined>>();
  const verdictOf = (url: URL): Promise<string | undefined> => {
    let verdict = verdicts.get(url.hostname);
    if (!verdict) {
      verdict = refuseResolvingToPrivate('url', url.href, policy).then(
        () => undefined,
        (e: unknown) => {
          if (e instanceof AppError) return e.message;
          throw e;
        },
      );
      verdicts.set(url.hostname, verdict);
    }
    return verdict;
  };
  await Promise.all(
    entries.map(async (entry) => {
      if (entry.url) entry.error = await verdictOf(entry.url);
    }),
  );
}

/** An entry's keyword: as in POST /audits (a string of at most 200 characters); omitted or null means detected. */
function entryKeyword(item: { keyword?: unknown }): string | null {
  const k = item.keyword;
  if (k === undefined || k === null) return null;
  if (typeof k !== 'string') throw invalid('keyword must be a string');
  if (charCount(k) > KEYWORD_MAX_CHARS) throw invalid(`keyword must be at most ${KEYWORD_MAX_CHARS} characters long`);
  if (k.trim() === '') throw invalid('keyword must not be empty; omit it to have the keyword detected');
  return storableText(k.trim());
}
