import { moduleBeside, runOnPool } from '../../infra/workers/cpuPool.ts';
import type { prepareAudit } from '../engine/prepare.ts';
import type { EngineInput, EngineResult } from '../engine/types.ts';

const WORK = moduleBeside(import.meta.url, 'engineWork');

/** The engine's preparation (keyword, language, CSI) on a pool thread. */
export const prepareOnPool = (input: EngineInput) =>
  runOnPool<EngineInput, ReturnType<typeof prepareAudit>>(WORK, 'prepare', input);

/** The whole audit on a pool thread. */
export const auditOnPool = (input: EngineInput) => runOnPool<EngineInput, EngineResult>(WORK, 'audit', input);
