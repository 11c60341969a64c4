import { AppError } from '../../../core/errors.ts';
import { isInverted, parseTimeBound, type TimeBound } from './dateBounds.ts';
import { parseDomainFilter } from './domainFilter.ts';
import { NO_PROJECT } from '../../pipeline/limits.ts';

export const JOB_STATUSES = ['queued', 'running', 'completed', 'error'] as const;
export const LIST_SOURCES = ['api', 'panel', 'all'] as const;
export const LIST_DEFAULT_LIMIT = 25;
export const LIST_MAX_LIMIT = 100;
export const LIST_MAX_PAGE = 1_000_000;

export type JobStatus = (typeof JOB_STATUSES)[number];
export type ListSource = (typeof LIST_SOURCES)[number];

/** The filters of GET /audits, parsed; each absent filter is undefined. */
export interface ListFilters {
  /** An exact project name, or null for `__none__` (unassigned only). */
  project?: string | null;
  status?: JobStatus;
  bulkId?: string;
  createdAfter?: TimeBound;
  createdBefore?: TimeBound;
  source: ListSource;
  /** Normalised host: matches itself and its subdomains. */
  domain?: string;
}

const FILTERS = ['project', 'status', 'bulkId', 'createdAfter', 'createdBefore', 'source', 'domain'] as const;
const ENUMERATIONS: ReadonlySet<string> = new Set(['status']);

/**
 * GET /audits filters (spec 4.9) from the query string. An empty value means the filter is absent
 * (spec: an empty project is ignored; the others follow it), except `status=`: spec 4.9 lists its
 * values and says any other gives 400, and the empty one is another. A filter given twice is a 400: which one would win is a guess.
 */
export function parseListFilters(query: Record<string, unknown>): ListFilters {
  const v: Partial<Record<(typeof FILTERS)[number], string>> = {};
  for (const name of FILTERS) {
    const raw = query[name];
    if (raw === undefined) continue;
    if (Array.isArray(raw)) throw invalid(name, `${name} may be given only once`);
    const s = String(raw);
    if (s !== '' || ENUMERATIONS.has(name)) v[name] = s;
  }
  const filters: ListFilters = { source: 'api' };
  if (v.project !== undefined) filters.project = v.project === NO_PROJECT ? null : v.project;
  if (v.status !== undefined) filters.status = oneOf(v.status, JOB_STATUSES, 'status');
  if (v.source !== undefined) filters.source = oneOf(v.source, LIST_SOURCES, 'source');
  if (v.bulkId !== undefined) filters.bulkId = v.bulkId;
  if (v.createdAfter !== undefined) filters.createdAfter = parseTimeBound(v.createdAfter, 'createdAfter');
  if (v.createdBefore !== undefined) filters.createdBefore = parseTimeBound(v.createdBefore, 'createdBefore');
  if (filters.createdAfter && filters.createdBefore && isInverted(filters.createdAfter, filters.createdBefore)) {
    throw invalid('createdAfter', `createdAfter (${v.createdAfter}) is later than createdBefore (${v.createdBefore})`);
  }
  if (v.domain !== undefined) filters.domain = parseDomainFilter(v.domain);
  return filters;
}

function oneOf<T extends string>(value: string, allowed: readonly T[], name: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw invalid(name, `${name} must be one of ${allowed.join(', ')}; got ${JSON.stringify(value.slice(0, 40))}`);
  }
  return value as T;
}

const invalid = (field: string, message: string) => new AppError('invalid_request', message, { field });
