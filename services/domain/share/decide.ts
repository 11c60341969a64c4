import {
  ShareExpired,
  ShareExpiryChanged,
  ShareIssued,
  ShareReissued,
  ShareRevoked,
  type ShareEvent,
} from '../../../events/share/events.ts';
import { AppError } from '../../../core/errors.ts';
import type { ExpiryRequest, ShareCommand } from './commands.ts';
import { issuesOf, isPastExpiry, type ShareState } from './state.ts';

const expiryFrom = (now: Date, days: number, dayMs: number): string =>
  new Date(now.getTime() + days * dayMs).toISOString();

const requireCompleted = (auditStatus: string): void => {
  // Spec 7: 409 not_completed for share on an audit that is queued, running or in error.
  if (auditStatus !== 'completed')
    throw new AppError('not_completed', `The audit is ${auditStatus}; only a completed audit can be shared`);
};

/** The expiry a POST asks for; undefined: leave it as it is. */
const requested = (e: ExpiryRequest, now: Date, dayMs: number): string | null | undefined =>
  e.kind === 'omitted' ? undefined : e.kind === 'none' ? null : expiryFrom(now, e.days, dayMs);

/**
 * Every row of spec 3.3 and every rule of 4.7-4.8. A link whose date has passed counts as expired
 * even before the scheduler's ShareExpired lands: a POST then records that expiry first, so the
 * history reads as it happened.
 */
export const decide = (command: ShareCommand, state: ShareState): ShareEvent[] => {
  switch (command.type) {
    case 'IssueOnCompletion': {
      // Only the first link: a POST (or a DELETE) that came first wins, and a replay issues nothing.
      if (state.status !== 'None') return [];
      const d = command.data;
      const expiresAt = d.expiresInDays === null ? null : expiryFrom(d.now, d.expiresInDays, d.dayMs);
      return [
        ShareIssued({ auditId: d.auditId, token: d.tokenHashFor(1), lang: d.lang, expiresAt, trigger: 'submission' }),
      ];
    }
    case 'ShareReport': {
      const d = command.data;
      requireCompleted(d.auditStatus);
      const wanted = requested(d.expiry, d.now, d.dayMs);
      if (state.status === 'None' || state.status === 'Revoked') {
        // No link yet, or a revoked one: a NEW address (no body: without expiry).
        return [
          ShareIssued({
            auditId: d.auditId,
            token: d.tokenHashFor(issuesOf(state) + 1),
            lang: d.lang,
            expiresAt: wanted ?? null,
            trigger: 'api',
          }),
        ];
      }
      if (state.status === 'Active' && isPastExpiry(state.expiresAt, d.now)) {
        return [
          ShareExpired({ auditId: d.auditId, expiresAt: state.expiresAt! }),
          ShareReissued({ auditId: d.auditId, expiresAt: wanted ?? null }),
        ];
      }
      if (state.status === 'Expired') return [ShareReissued({ auditId: d.auditId, expiresAt: wanted ?? null })];
      // Active: the same address; the expiry changes only when the field was given.
      if (wanted === undefined || wanted === state.expiresAt) return [];
      return [ShareExpiryChanged({ auditId: d.auditId, expiresAt: wanted })];
    }
    case 'RevokeShare': {
      requireCompleted(command.data.auditStatus);
      // Idempotent (spec 4.8): nothing to revoke, or already revoked, records nothing.
      if (state.status === 'Active' || state.status === 'Expired')
        return [ShareRevoked({ auditId: command.data.auditId })];
      return [];
    }
    case 'ExpireShare': {
      // Fires only when the link is still active and its (possibly moved) date has passed.
      if (state.status !== 'Active' || !isPastExpiry(state.expiresAt, command.data.now)) return [];
      return [ShareExpired({ auditId: command.data.auditId, expiresAt: state.expiresAt! })];
    }
    default: {
      const _exhaustive: never = command;
      return _exhaustive;
    }
  }
};
