import { ledgerProjection } from './ledger/projection.ts';
import { auditsProjection } from './audits/projection.ts';
import type { Projection } from './projection.ts';
import { sharesProjection } from './shares/projection.ts';

/**
 * Every asynchronous read model of the service; the `projections` role runs them all.
 * (The accounts projection is inline: projections/accounts/handleAccountCommand.ts writes it.)
 */
export const allProjections: Projection[] = [auditsProjection, ledgerProjection,
  sharesProjection,
];
