import { workerTask } from '../../infra/workers/workerTask.ts';
import { auditContent } from '../engine/audit.ts';
import { prepareAudit } from '../engine/prepare.ts';
import type { EngineInput } from '../engine/types.ts';

/** The auditor's CPU work, run on the pool's threads (infra/workers/cpuPool.ts), never on the event loop. */
export const prepare = workerTask((input: EngineInput) => prepareAudit(input));
export const audit = workerTask((input: EngineInput) => auditContent(input));
