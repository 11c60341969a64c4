import type { Projection } from './projection.ts';

/** Every read model of the service; the `projections` role runs them all. */
export const allProjections: Projection[] = [];
