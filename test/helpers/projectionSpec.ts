import { randomBytes } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { Value } from '@sinclair/typebox/value';
import type { DomainEvent } from '../../core/decider.ts';
import { deterministicId } from '../../core/ids.ts';
import type { EventEnvelope } from '../../events/envelope.ts';
import { eventDefinition } from '../../events/registry.ts';
import { withTransaction, type Pool } from '../../infra/postgres/pool.ts';
import type { Projection } from '../../projections/projection.ts';
import type { Asserts } from './deciderSpec.ts';
import { registerService } from '../../services/registration.ts';

/** Where an event sits: its account and stream; the rest of the envelope is filled in. */
export interface At {
  accountId: string;
  streamId: string;
  /** Defaults to 2026-01-01T00:00:00Z plus one second per event. */
  occurredAt?: string;
}

/**
 * Envelopes for `events` as the store would hand them to a projection: stream versions counted per
 * stream, log positions in the given order, the current payload version, each payload checked
 * against its schema as appendToStream does.
 */
export function envelopes(given: readonly (readonly [DomainEvent, At])[], validate = true): EventEnvelope[] {
  registerService();
  const versions = new Map<string, number>();
  return given.map(([event, at], i) => {
    // The store refuses a payload its schema does not accept; a spec must not fold one either.
    const schema = eventDefinition(event.type).schema;
    if (validate && !Value.Check(schema, event.data)) {
      const first = [...Value.Errors(schema, event.data)][0];
      throw new Error(`given event ${i} (${event.type}) does not match its schema: ${first?.path} ${first?.message}`);
    }
    const streamVersion = (versions.get(at.streamId) ?? 0) + 1;
    versions.set(at.streamId, streamVersion);
    return {
      id: deterministicId('projection-spec', String(i)),
      type: event.type,
      version: eventDefinition(event.type).latest,
      accountId: at.accountId,
      streamId: at.streamId,
      streamVersion,
      position: { txId: BigInt(i + 1), seq: 0n },
      occurredAt: at.occurredAt ?? new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
      causationId: null,
      correlationId: null,
      payload: event.data,
    };
  });
}

/** Rows a query returns, for comparing (column order and row order as the query gives them). */
type Rows = Record<string, unknown>[];

/**
 * Given/then for a projection, beside deciderSpec: the given events are folded by the projection's
 * own `handle` into fresh tables (a schema of their own in the test database, as a rebuild does),
 * with no subscription, relay or Kafka; then a query over its tables must return the expected rows.
 *
 *   await projectionSpec(pool, ledgerProjection)
 *     .given([[CreditsPurchased({...}), at], [CreditCharged({...}), at]])
 *     .then(t, 'SELECT remaining FROM ledger_accounts', [{ remaining: 9 }]);
 *
 * `handle` is called once per event by default (a subscriber's smallest batch) or with all events
 * in one batch (`inOneBatch`), and `thenAgain` applies the same events a second time (a redelivery)
 * for the projections that promise to ignore an event already applied, checking the rows after each.
 */
export function projectionSpec(pool: Pool, projection: Projection) {
  return {
    /**
     * `validate: false` only for events the store holds from before their schema was tightened
     * (secrets in clear, until `secrets migrate`): readers must still fold them.
     */
    given(events: readonly (readonly [DomainEvent, At])[], options: { inOneBatch?: boolean; validate?: boolean } = {}) {
      const all = envelopes(events, options.validate ?? true);
      for (const e of all) {
        if (!projection.canHandle.includes(e.type))
          throw new Error(`${projection.name} does not handle ${e.type}: leave it out of given`);
      }
      const batches = options.inOneBatch ? [all] : all.map((e) => [e]);
      const apply = (schema: string, batch: EventEnvelope[]): Promise<void> =>
        withTransaction(pool, async (tx) => {
          await tx.query(`SET LOCAL search_path TO ${schema}`);
          await projection.handle(batch, tx);
        });
      const query = (schema: string, sql: string, params: unknown[]): Promise<Rows> =>
        withTransaction(pool, async (tx) => {
          await tx.query(`SET LOCAL search_path TO ${schema}`);
          return (await tx.query(sql, params)).rows as Rows;
        });
      const check = async (
        t: Asserts,
        again: boolean,
        sql: string,
        params: unknown[],
        expected: Rows,
        message: string,
      ) => {
        const schema = `spec_${randomBytes(6).toString('hex')}`;
        await pool.query(`CREATE SCHEMA ${schema}`);
        try {
          await withTransaction(pool, async (tx) => {
            await tx.query(`SET LOCAL search_path TO ${schema}`);
            await tx.query(projection.createSql);
          });
          for (const batch of batches) await apply(schema, batch);
          let found = await query(schema, sql, params);
          if (again) {
            // Redelivered from the first event on, the rows are checked after each batch: the final
            // state alone would hide a stale event that overwrites a row which a later redelivered
            // event then puts right again (an old share token back for a moment, a finished audit
            // running again), which a reader can see between the two.
            for (const [i, batch] of batches.entries()) {
              if (!isDeepStrictEqual(found, expected)) break;
              await apply(schema, batch);
              found = await query(schema, sql, params);
              if (!isDeepStrictEqual(found, expected)) {
                const which = options.inOneBatch ? 'the batch' : `event ${i + 1} (${batch[0]!.type})`;
                message = `${message}, once ${which} was delivered again`;
              }
            }
          }
          t.strictSame(found, expected, message);
        } finally {
          await pool.query(`DROP SCHEMA ${schema} CASCADE`);
        }
      };
      return {
        /** The query over the projection's tables returns `expected`. */
        then: (t: Asserts, sql: string, expected: Rows, message = 'rows', params: unknown[] = []) =>
          check(t, false, sql, params, expected, message),
        /**
         * The same after the events were applied, and again after each of them was delivered a
         * second time, in order (a redelivery changes nothing, at no moment).
         */
        thenAgain: (
          t: Asserts,
          sql: string,
          expected: Rows,
          message = 'rows after a redelivery',
          params: unknown[] = [],
        ) => check(t, true, sql, params, expected, message),
      };
    },
  };
}
