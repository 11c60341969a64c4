import { AppError, isAppError, type ErrorCode } from '../../core/errors.ts';

/**
 * The worker side of a pooled task. An error crosses the thread boundary by structured clone,
 * which keeps only its message: an AppError's code (csi_failed, keyword_required, ...) would be
 * lost. A task therefore answers with an outcome, and the pool turns a refusal back into the
 * same AppError on the caller's side.
 */
export type TaskOutcome<T> =
  { ok: true; value: T } | { ok: false; code: ErrorCode; message: string; extra: Record<string, unknown> };

export const workerTask =
  <I, O>(fn: (input: I) => O) =>
  (input: I): TaskOutcome<O> => {
    try {
      return { ok: true, value: fn(input) };
    } catch (e) {
      if (isAppError(e)) return { ok: false, code: e.code, message: e.message, extra: e.extra };
      throw e;
    }
  };

export const valueOf = <T>(outcome: TaskOutcome<T>): T => {
  if (outcome.ok) return outcome.value;
  throw new AppError(outcome.code, outcome.message, outcome.extra);
};
