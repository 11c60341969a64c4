import type { ShareEvent } from '../../../events/share/events.ts';
import type { Decider } from '../../../core/decider.ts';
import type { ShareCommand } from './commands.ts';
import { decide } from './decide.ts';
import { evolve, initialState, type ShareState } from './state.ts';

export const shareDecider: Decider<ShareCommand, ShareEvent, ShareState> = { decide, evolve, initialState };
export type { ExpiryRequest, ShareCommand } from './commands.ts';
export { isPastExpiry, type ShareState } from './state.ts';
