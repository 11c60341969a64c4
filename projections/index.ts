import { auditsProjection } from './audits/projection.ts';
import { ledgerProjection } from './ledger/projection.ts';
import type { Projection } from './projection.ts';

/**
 * Every asynchronous read model of the service; the `projections` role runs each as a consumer
 * group. The inline ones (accounts, shares, a job just accepted) are in projections/inline.ts.
 */
export const asyncProjections: readonly Projection[] = [auditsProjection, ledgerProjection];
