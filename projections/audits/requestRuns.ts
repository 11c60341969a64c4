import type { EventEnvelope } from '../../events/envelope.ts';

/**
 * A request and the events of its stream that follow it in the same batch and that its new row can
 * take at once: AuditStarted (the row is then `running`) and the types that change no column. A
 * supplied text records AuditStarted and ContentFetched with its request, so a batch of text
 * submissions inserts its rows in one statement instead of an insert and an update per audit.
 */
export interface RequestRun {
  requested: EventEnvelope;
  /** Every event of the run, the request first. */
  events: EventEnvelope[];
  started: boolean;
  /** The last event of the run that changes the row: it gives the row its version and updated_at. */
  last: EventEnvelope;
}

/**
 * The runs of a batch, by stream id, each from a stream's (first) AuditRequested. `changesRow`
 * names the types that write a column (the projection's own list), so a type it does not write
 * joins a run whatever it is.
 */
export function requestRuns(
  events: readonly EventEnvelope[],
  changesRow: (type: string) => boolean,
): Map<string, RequestRun> {
  const runs = new Map<string, RequestRun>();
  const closed = new Set<string>();
  for (const e of events) {
    const run = runs.get(e.streamId);
    if (!run) {
      if (e.type === 'AuditRequested') runs.set(e.streamId, { requested: e, events: [e], started: false, last: e });
      continue;
    }
    if (closed.has(e.streamId)) continue;
    if (e.type === 'AuditStarted' && !run.started) {
      run.started = true;
      run.last = e;
    } else if (changesRow(e.type)) {
      closed.add(e.streamId);
      continue;
    }
    run.events.push(e);
  }
  return runs;
}
