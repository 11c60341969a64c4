import type { Pool } from '../../../../infra/postgres/pool.ts';
import type { AuditApiSettings } from '../../audits/settings.ts';

/** The signed-in owner's session on the report pages: its cookie, its lifetime and its paths. */
export const SESSION_COOKIE = 'audit_session';
export const SESSION_TTL_SECONDS = 12 * 3600;
export const LOGIN = '/app/login';
export const LOGOUT = '/app/logout';
export const REPORT_PREFIX = '/app/audits/';

/** What every page route is registered with; `secure` marks the cookies Secure (an https site). */
export interface PageOptions {
  pool: Pool;
  settings: AuditApiSettings;
  secure: boolean;
}
