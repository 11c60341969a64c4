import { AppError } from '../../../core/errors.ts';

/** A bound of the createdAfter/createdBefore filters, inclusive or (for a bare date's end) exclusive. */
export interface TimeBound {
  at: Date;
  inclusive: boolean;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// RFC 3339 / ISO 8601 extended form with seconds optional and the zone optional (none: UTC). A "+"
// left unescaped in a query string arrives as a space, so " 02:00" is read as "+02:00".
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?([Zz]|[+\- ]\d{2}:?\d{2})?$/;

const DAY_MS = 86_400_000;

const validDate = (y: number, m: number, d: number): boolean => {
  const t = new Date(Date.UTC(y, m - 1, d));
  return t.getUTCFullYear() === y && t.getUTCMonth() === m - 1 && t.getUTCDate() === d;
};

/**
 * createdAfter / createdBefore (spec 4.9): a bare date `YYYY-MM-DD` is a whole UTC day — its start
 * for After, its END for Before (everything before the next day's start); a timestamp is used as
 * is, in its zone (`Z` or `±hh:mm`) or, without one, in UTC: the service keeps and shows every time
 * in UTC, and a client's local zone is unknown to it. Both bounds are inclusive.
 */
export function parseTimeBound(raw: string, name: 'createdAfter' | 'createdBefore'): TimeBound {
  const bad = () =>
    new AppError(
      'invalid_request',
      `${name} must be a date (YYYY-MM-DD) or an ISO 8601 timestamp (e.g. 2026-09-01T12:00:00Z; without a zone it is UTC); got ${JSON.stringify(raw.slice(0, 40))}`,
      { field: name },
    );
  const d = DATE.exec(raw);
  if (d) {
    const [y, m, day] = [Number(d[1]), Number(d[2]), Number(d[3])];
    if (!validDate(y, m, day)) throw bad();
    const start = Date.UTC(y, m - 1, day);
    return name === 'createdAfter'
      ? { at: new Date(start), inclusive: true }
      : { at: new Date(start + DAY_MS), inclusive: false };
  }
  const ts = TIMESTAMP.exec(raw);
  if (!ts) throw bad();
  const [y, m, day, hh, mm, ss] = [1, 2, 3, 4, 5, 6].map((i) => Number(ts[i] ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (!validDate(y, m, day) || hh > 23 || mm > 59 || ss > 59) throw bad();
  const zone = ts[8] ?? 'Z';
  let offsetMin = 0;
  if (!/^[Zz]$/.test(zone)) {
    const digits = zone.slice(1).replace(':', '');
    const oh = Number(digits.slice(0, 2));
    const om = Number(digits.slice(2));
    if (oh > 23 || om > 59) throw bad();
    offsetMin = (zone[0] === '-' ? -1 : 1) * (oh * 60 + om);
  }
  const ms = Number(((ts[7] ?? '') + '000').slice(0, 3));
  return { at: new Date(Date.UTC(y, m - 1, day, hh, mm, ss, ms) - offsetMin * 60_000), inclusive: true };
}

/** True when no time can satisfy both bounds (createdAfter later than createdBefore: 400). */
export const isInverted = (after: TimeBound, before: TimeBound): boolean =>
  before.inclusive ? after.at.getTime() > before.at.getTime() : after.at.getTime() >= before.at.getTime();
