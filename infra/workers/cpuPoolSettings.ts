import { availableParallelism } from 'node:os';

/** The worker pool's settings, apart from the pool: the config loader reads them without piscina. */
export interface CpuPoolSettings {
  /** Threads in the pool (ENGINE_THREADS). */
  threads: number;
  /** CPU time a task may use on its thread (ENGINE_TIME_LIMIT_MS). */
  timeLimitMs: number;
}

export const defaultCpuPoolSettings = (): CpuPoolSettings => ({
  threads: Math.max(1, availableParallelism() - 1),
  timeLimitMs: 60_000,
});
