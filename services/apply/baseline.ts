import { auditStreamId } from '../../events/audit/events.ts';
import { getContent } from '../../infra/eventStore/contentStore.ts';
import { loadStream } from '../../infra/eventStore/eventStore.ts';
import type { Queryable } from '../../infra/postgres/pool.ts';
import { auditDecider } from '../domain/audit/decider.ts';
import type { SerpBenchmarkInput } from '../engine/types.ts';

/** The SERP benchmark input the audit was scored against, as kept at its completion; null: none. */
export async function loadBaseline(pool: Queryable, auditId: string): Promise<SerpBenchmarkInput | null> {
  const { state } = await loadStream(pool, auditDecider, auditStreamId(auditId));
  if (state.status !== 'completed' || !state.benchmarkRef) return null;
  const body = await getContent(pool, state.benchmarkRef);
  return body === null ? null : (JSON.parse(body) as SerpBenchmarkInput);
}
