/**
 * The task kinds of an audit's slow steps. The reactions that record them (from AuditRequested and
 * ContentFetched) are in services/reactions.ts; the workers that lease them in ./roles.ts.
 */
export const FETCH = 'fetch';
export const ANALYSE = 'analyse';
