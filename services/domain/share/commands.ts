import type { ShareLang } from '../../../events/share/events.ts';
import type { Command } from '../../../core/decider.ts';

/** What the caller said about the expiry (spec 4.7): nothing, an explicit null, or 1-365 days from now. */
export type ExpiryRequest = { kind: 'omitted' } | { kind: 'none' } | { kind: 'days'; days: number };

/** Time, the token's hash and the length of a day come in with the command: decide stays pure. */
interface Context {
  auditId: string;
  now: Date;
  /** 86,400,000 in production; a short day in tests (SHARE_DAY_SECONDS). */
  dayMs: number;
  /**
   * The `sha256:` hash of the token of the link's n-th issue (1, 2, ... : a revocation and a new
   * POST give the next), used only if a new address is issued. The caller derives the token from
   * the server's key (infra/secrets/shareTokens.ts); the log never sees it.
   */
  tokenHashFor: (issue: number) => string;
  lang: ShareLang;
}

/** The audit completed and was submitted with `share: true` (spec 4.2, 3.3 row 1). */
export type IssueOnCompletion = Command<'IssueOnCompletion', Context & { expiresInDays: number | null }>;
/** POST /audits/{id}/share (spec 4.7). `auditStatus` is the audit's, read in the same transaction. */
export type ShareReport = Command<'ShareReport', Context & { auditStatus: string; expiry: ExpiryRequest }>;
/** DELETE /audits/{id}/share (spec 4.8). */
export type RevokeShare = Command<'RevokeShare', { auditId: string; auditStatus: string }>;
/** The scheduler's timer fired (spec 3.3 row 4). */
export type ExpireShare = Command<'ExpireShare', { auditId: string; now: Date }>;

export type ShareCommand = IssueOnCompletion | ShareReport | RevokeShare | ExpireShare;
