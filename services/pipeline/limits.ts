/**
 * The limits of POST /audits (spec 4.2, 8) in one place: the request parser enforces them with its
 * messages and the TypeBox body schema (OpenAPI) is built from the same numbers.
 */
export const CONTENT_MIN_CHARS = 50;
export const CONTENT_MAX_CHARS = 200_000;
export const TITLE_MAX_CHARS = 300;
export const KEYWORD_MAX_CHARS = 200;
export const PROJECT_MAX_CHARS = 100;
export const SHARE_DAYS_MIN = 1;
export const SHARE_DAYS_MAX = 365;

/**
 * The largest body a valid submission can have: every field at its maximum with every character
 * sent as a \u-escaped surrogate pair (12 bytes a character, as Python's json.dumps does with
 * emoji), plus room for the JSON around them. Any body over it breaks a limit of spec 4.2.
 */
export const SUBMISSION_BODY_LIMIT = 2_621_440; // 2.5 MiB ≥ 12 × (200,000 + 300 + 200 + 100) + 2 × 12 × 2,048 + slack

/** The list filter's value for "no project" (spec 4.9): not usable as a project name. */
export const NO_PROJECT = '__none__';

/** Idempotency-Key: 1 to 255 visible ASCII characters (decided; docs/api-decisions.md). */
export const IDEMPOTENCY_KEY_MAX_CHARS = 255;

/** The fields of POST /audits, in the order they are checked and listed in messages. */
export const SUBMISSION_FIELDS = [
  'url',
  'content',
  'title',
  'keyword',
  'language',
  'project',
  'share',
  'shareExpiresInDays',
  'webhookUrl',
] as const;

/**
 * Characters as JSON Schema counts them (Unicode code points, like Ajv's maxLength), so the parser
 * and the documented schema agree on every string, emoji included.
 */
export const charCount = (s: string): number => {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
};
