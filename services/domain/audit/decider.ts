import type { AuditEvent } from '../../../events/audit/events.ts';
import type { Decider } from '../../../core/decider.ts';
import type { AuditCommand } from './commands.ts';
import { decide } from './decide.ts';
import { evolve, initialState, type AuditState } from './state.ts';

export const auditDecider: Decider<AuditCommand, AuditEvent, AuditState> = { decide, evolve, initialState };
export type { AuditCommand } from './commands.ts';
export {
  isInFlight,
  isTerminal,
  type AuditState,
  type AuditStatus,
  type CompletedAudit,
  type FailedAudit,
  type InFlightAudit,
} from './state.ts';
