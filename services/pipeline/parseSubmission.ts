import ISO6391 from 'iso-639-1';
import { validateAuditUrl, validateWebhookUrl, type AcceptancePolicy } from '../../infra/http/validateUrl.ts';
import type { AuditRequestInput } from './submitAudit.ts';
import { AppError } from '../../core/errors.ts';
import { storableText } from '../../infra/postgres/storableText.ts';
import {
  charCount,
  CONTENT_MAX_CHARS,
  CONTENT_MIN_CHARS,
  KEYWORD_MAX_CHARS,
  NO_PROJECT,
  PROJECT_MAX_CHARS,
  SHARE_DAYS_MAX,
  SHARE_DAYS_MIN,
  SUBMISSION_FIELDS,
  TITLE_MAX_CHARS,
} from './limits.ts';

/**
 * POST /audits body → the command's request (spec 4.2, 7), every rule with its own message. The
 * first broken rule is reported (400 invalid_request with `field`), in the order of
 * SUBMISSION_FIELDS after the url/content choice. `null` counts as an omitted field. The operator
 * CLI's `audits create` goes through here too, so app audits obey the same rules.
 */
export function parseAuditSubmission(body: unknown, policy: AcceptancePolicy): AuditRequestInput {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw invalid(null, 'The body must be a JSON object with url or content');
  }
  const raw = body as Record<string, unknown>;
  const unknownField = Object.keys(raw).find((k) => !(SUBMISSION_FIELDS as readonly string[]).includes(k));
  if (unknownField !== undefined) {
    throw invalid(
      unknownField,
      `Unknown field ${JSON.stringify(shorten(unknownField))} (the fields are ${SUBMISSION_FIELDS.join(', ')})`,
    );
  }
  const given = (k: (typeof SUBMISSION_FIELDS)[number]) => raw[k] !== undefined && raw[k] !== null;
  if (!given('url') && !given('content')) throw invalid('url', 'Either url or content is required');
  if (given('url') && given('content')) throw invalid('url', 'Send either url or content, not both');

  const url = given('url') ? validateAuditUrl(stringField(raw.url, 'url'), policy) : null;
  const content = given('content')
    ? text(raw.content, 'content', { min: CONTENT_MIN_CHARS, max: CONTENT_MAX_CHARS })
    : null;

  let title: string | null = null;
  if (given('title')) {
    title = text(raw.title, 'title', {
      max: TITLE_MAX_CHARS,
      notBlank: 'omit it to use the keyword as the title',
    }).trim();
    // Spec 4.2: "used only with content". Refused rather than dropped, so nobody believes it was used.
    if (url !== null)
      throw invalid('title', 'title is used only with content; a page audited from url keeps its own title');
  }
  const keyword = given('keyword')
    ? text(raw.keyword, 'keyword', { max: KEYWORD_MAX_CHARS, notBlank: 'omit it to have the keyword detected' }).trim()
    : null;
  const language = given('language') ? isoLanguage(raw.language) : null;
  const project = given('project') ? projectName(raw.project) : null;

  let share = false;
  if (given('share')) {
    if (typeof raw.share !== 'boolean')
      throw invalid('share', `share must be a JSON boolean (true or false); got ${describe(raw.share)}`);
    share = raw.share;
  }
  let shareExpiresInDays: number | null = null;
  if (given('shareExpiresInDays')) {
    const days = raw.shareExpiresInDays;
    if (typeof days !== 'number' || !Number.isInteger(days) || days < SHARE_DAYS_MIN || days > SHARE_DAYS_MAX) {
      throw invalid(
        'shareExpiresInDays',
        `shareExpiresInDays must be a whole number from ${SHARE_DAYS_MIN} to ${SHARE_DAYS_MAX}; got ${describe(days)}`,
      );
    }
    if (!share) throw invalid('shareExpiresInDays', 'shareExpiresInDays requires share: true');
    shareExpiresInDays = days;
  }
  const webhookUrl = given('webhookUrl') ? validateWebhookUrl(stringField(raw.webhookUrl, 'webhookUrl'), policy) : null;

  return { url, content, title, keyword, language, project, share, shareExpiresInDays, webhookUrl };
}

/** A project label (spec 2.7): an exact, case-sensitive name of 1 to 100 characters, kept as sent. */
export function projectName(value: unknown): string {
  const name = text(value, 'project', { max: PROJECT_MAX_CHARS, notBlank: 'omit it to leave the audit unassigned' });
  if (name === NO_PROJECT)
    throw invalid(
      'project',
      `project ${JSON.stringify(NO_PROJECT)} is reserved: the job list's project filter uses it for unassigned audits`,
    );
  return name;
}

/** ISO 639-1: two lower-case letters that the standard's list holds (iso-639-1 package). */
export function isoLanguage(value: unknown): string {
  const code = stringField(value, 'language');
  if (!/^[a-z]{2}$/.test(code) || !ISO6391.validate(code)) {
    throw invalid(
      'language',
      `language must be an ISO 639-1 code (two lower-case letters, e.g. en, pl, de); got ${JSON.stringify(shorten(code))}`,
    );
  }
  return code;
}

function stringField(value: unknown, field: string): string {
  if (typeof value !== 'string') throw invalid(field, `${field} must be a string; got ${describe(value)}`);
  return value;
}

function text(value: unknown, field: string, rule: { min?: number; max: number; notBlank?: string }): string {
  stringField(value, field);
  const n = charCount(value as string);
  if (rule.min !== undefined && (n < rule.min || n > rule.max)) {
    throw invalid(
      field,
      `${field} must be ${rule.min} to ${rule.max.toLocaleString('en-US')} characters long; it has ${n.toLocaleString('en-US')}`,
    );
  }
  if (n > rule.max)
    throw invalid(
      field,
      `${field} must be at most ${rule.max.toLocaleString('en-US')} characters long; it has ${n.toLocaleString('en-US')}`,
    );
  if (rule.notBlank && (value as string).trim() === '')
    throw invalid(field, `${field} must not be empty; ${rule.notBlank}`);
  // Made storable here, once, so the answer (the 202 echoes project) and the store hold the same text.
  return storableText(value as string);
}

const invalid = (field: string | null, message: string) =>
  new AppError('invalid_request', message, field ? { field } : {});

const shorten = (s: string) => (s.length > 40 ? `${s.slice(0, 40)}…` : s);

export const describe = (v: unknown): string => {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'string') return `the string ${JSON.stringify(shorten(v))}`;
  if (typeof v === 'number') return String(v);
  if (typeof v === 'boolean') return `the boolean ${v}`;
  return `an ${typeof v}`;
};
