import t from 'tap';
import type { ShareEvent } from '../../../../events/share/events.ts';
import { shareDecider, type ExpiryRequest, type ShareCommand } from '../../../../services/domain/share/decider.ts';
import { spec } from '../../../helpers/deciderSpec.ts';
import { secretHashOf } from '../../../../core/secretHash.ts';

const s = spec(shareDecider);
const DAY = 86_400_000;
const auditId = 'aud_1';
const now = new Date('2026-11-23T12:00:00.000Z');
const later = (ms: number) => new Date(now.getTime() + ms);
const iso = (d: Date) => d.toISOString();

/** The hash of the n-th issue's token, as the caller derives it (the log never holds the token). */
const hashOf = (issue: number): string => `sha256:${String(issue).padStart(64, '0')}`;
const issueOnCompletion = (expiresInDays: number | null, at = now): ShareCommand => ({
  type: 'IssueOnCompletion',
  data: { auditId, now: at, dayMs: DAY, tokenHashFor: hashOf, lang: 'pl', expiresInDays },
});
const post = (expiry: ExpiryRequest, at = now, auditStatus = 'completed'): ShareCommand => ({
  type: 'ShareReport',
  data: { auditId, now: at, dayMs: DAY, tokenHashFor: hashOf, lang: 'en', auditStatus, expiry },
});
const del = (auditStatus = 'completed'): ShareCommand => ({ type: 'RevokeShare', data: { auditId, auditStatus } });
const expire = (at: Date): ShareCommand => ({ type: 'ExpireShare', data: { auditId, now: at } });

const issued = (
  token: string,
  expiresAt: string | null,
  trigger: 'submission' | 'api' = 'api',
  lang: 'pl' | 'en' = 'en',
): ShareEvent => ({
  type: 'ShareIssued',
  data: { auditId, token, lang, expiresAt, trigger },
});
const changed = (expiresAt: string | null): ShareEvent => ({
  type: 'ShareExpiryChanged',
  data: { auditId, expiresAt },
});
const expired = (expiresAt: string): ShareEvent => ({ type: 'ShareExpired', data: { auditId, expiresAt } });
const reissued = (expiresAt: string | null): ShareEvent => ({ type: 'ShareReissued', data: { auditId, expiresAt } });
const revoked: ShareEvent = { type: 'ShareRevoked', data: { auditId } };

const in7 = iso(later(7 * DAY));
const active = [issued(hashOf(1), in7)];
const activeNoExpiry = [issued(hashOf(1), null)];
const wasExpired = [issued(hashOf(1), in7), expired(in7)];

t.test('no link (3.3 rows 1-2)', async (t) => {
  t.test(
    'share: true issues the link at completion; the clock starts at issue time',
    s
      .given([])
      .when(issueOnCompletion(30))
      .then([issued(hashOf(1), iso(later(30 * DAY)), 'submission', 'pl')]),
  );
  t.test(
    'share: true without shareExpiresInDays never expires',
    s
      .given([])
      .when(issueOnCompletion(null))
      .then([issued(hashOf(1), null, 'submission', 'pl')]),
  );
  t.test('completion after a POST already shared issues nothing', s.given(active).when(issueOnCompletion(3)).then([]));
  t.test(
    'completion after a DELETE issues nothing (the owner revoked it)',
    s
      .given([...active, revoked])
      .when(issueOnCompletion(3))
      .then([]),
  );
  t.test(
    'POST without body shares without expiry',
    s
      .given([])
      .when(post({ kind: 'omitted' }))
      .then([issued(hashOf(1), null)]),
  );
  t.test(
    'POST with null shares without expiry',
    s
      .given([])
      .when(post({ kind: 'none' }))
      .then([issued(hashOf(1), null)]),
  );
  t.test(
    'POST with 1 day counts from now',
    s
      .given([])
      .when(post({ kind: 'days', days: 1 }))
      .then([issued(hashOf(1), iso(later(DAY)))]),
  );
  t.test(
    'POST with 365 days counts from now',
    s
      .given([])
      .when(post({ kind: 'days', days: 365 }))
      .then([issued(hashOf(1), iso(later(365 * DAY)))]),
  );
  for (const status of ['queued', 'running', 'error']) {
    t.test(
      `POST on a ${status} audit is 409 not_completed`,
      s
        .given([])
        .when(post({ kind: 'omitted' }, now, status))
        .thenThrows('not_completed', new RegExp(status)),
    );
    t.test(
      `DELETE on a ${status} audit is 409 not_completed`,
      s.given([]).when(del(status)).thenThrows('not_completed'),
    );
  }
  t.test('DELETE with nothing shared records nothing (200)', s.given([]).when(del()).then([]));
  t.test(
    'the timer firing with nothing shared records nothing',
    s
      .given([])
      .when(expire(later(DAY)))
      .then([]),
  );
});

t.test('active (3.3 rows 3, 4, 6)', async (t) => {
  t.test(
    'POST again without the field: same address, expiry untouched',
    s
      .given(active)
      .when(post({ kind: 'omitted' }, later(DAY)))
      .then([]),
  );
  t.test(
    'POST with days moves the expiry, counted from now',
    s
      .given(active)
      .when(post({ kind: 'days', days: 2 }, later(DAY)))
      .then([changed(iso(later(3 * DAY)))]),
  );
  t.test(
    'POST with null removes the expiry',
    s
      .given(active)
      .when(post({ kind: 'none' }))
      .then([changed(null)]),
  );
  t.test(
    'POST with null on a link without expiry records nothing',
    s
      .given(activeNoExpiry)
      .when(post({ kind: 'none' }))
      .then([]),
  );
  t.test(
    'POST with days on a link without expiry sets one',
    s
      .given(activeNoExpiry)
      .when(post({ kind: 'days', days: 7 }))
      .then([changed(in7)]),
  );
  t.test(
    'the timer before the date records nothing',
    s
      .given(active)
      .when(expire(later(7 * DAY - 1)))
      .then([]),
  );
  t.test(
    'the timer at the date expires the link and keeps the date',
    s
      .given(active)
      .when(expire(later(7 * DAY)))
      .then([expired(in7)]),
  );
  t.test(
    'the timer on a link without expiry records nothing',
    s
      .given(activeNoExpiry)
      .when(expire(later(400 * DAY)))
      .then([]),
  );
  t.test(
    'the timer of a moved expiry fires for nothing',
    s
      .given([...active, changed(iso(later(9 * DAY)))])
      .when(expire(later(8 * DAY)))
      .then([]),
  );
  t.test('DELETE revokes', s.given(active).when(del()).then([revoked]));
  t.test(
    'POST after the date, before the timer: the expiry is recorded, then the same address again without expiry',
    s
      .given(active)
      .when(post({ kind: 'omitted' }, later(8 * DAY)))
      .then([expired(in7), reissued(null)]),
  );
});

t.test('expired (3.3 rows 5, 6)', async (t) => {
  t.test(
    'POST gives the same address back without expiry',
    s
      .given(wasExpired)
      .when(post({ kind: 'omitted' }, later(8 * DAY)))
      .then([reissued(null)]),
  );
  t.test(
    'POST with null: the same, without expiry',
    s
      .given(wasExpired)
      .when(post({ kind: 'none' }, later(8 * DAY)))
      .then([reissued(null)]),
  );
  t.test(
    'POST with days: the same address with that expiry from now',
    s
      .given(wasExpired)
      .when(post({ kind: 'days', days: 1 }, later(8 * DAY)))
      .then([reissued(iso(later(9 * DAY)))]),
  );
  t.test(
    'the timer again records nothing (two schedulers, one expiry)',
    s
      .given(wasExpired)
      .when(expire(later(8 * DAY)))
      .then([]),
  );
  t.test('DELETE revokes', s.given(wasExpired).when(del()).then([revoked]));
});

t.test('revoked (3.3 rows 6, 7)', async (t) => {
  const gone = [...active, revoked];
  t.test('DELETE again records nothing (200)', s.given(gone).when(del()).then([]));
  t.test(
    'POST gives a NEW address: the next issue, so another token',
    s
      .given(gone)
      .when(post({ kind: 'omitted' }, now, 'completed'))
      .then([issued(hashOf(2), null)]),
  );
  t.test(
    'POST with days gives a new address with that expiry',
    s
      .given(gone)
      .when(post({ kind: 'days', days: 7 }, now, 'completed'))
      .then([issued(hashOf(2), in7)]),
  );
  t.test(
    'the old timer firing records nothing',
    s
      .given(gone)
      .when(expire(later(8 * DAY)))
      .then([]),
  );
  t.test('a revoked, then re-shared link is active with the new token', async (t) => {
    const state = [...gone, issued(hashOf(2), null)].reduce(shareDecider.evolve, shareDecider.initialState());
    t.match(state, { status: 'Active', issue: 2, tokenHash: hashOf(2) });
  });
  t.test(
    'a third issue after a second revocation',
    s
      .given([...gone, issued(hashOf(2), null), revoked])
      .when(post({ kind: 'omitted' }))
      .then([issued(hashOf(3), null)]),
  );
  t.test('an event written before tokens left the log (the token itself) folds to its hash', async (t) => {
    const state = [issued('legacy-token-in-clear', null)].reduce(shareDecider.evolve, shareDecider.initialState());
    t.match(state, { status: 'Active', issue: 1, tokenHash: secretHashOf('legacy-token-in-clear') });
  });
});
