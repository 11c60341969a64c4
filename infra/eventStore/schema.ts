import type { Migration } from '../postgres/migrate.ts';

/**
 * The event store. `tx_id` is the id of the writing transaction: readers order by (tx_id, seq) and
 * only read transactions older than every running one (pg_snapshot_xmin), so a transaction that
 * commits late is never skipped. `partition` spreads accounts over the embedded log's virtual
 * partitions; an account's events always share one.
 */
export const eventStoreMigration: Migration = {
  id: '0001_event_store',
  sql: `
    CREATE TABLE events (
      seq            bigserial   PRIMARY KEY,
      tx_id          xid8        NOT NULL DEFAULT pg_current_xact_id(),
      id             text        NOT NULL UNIQUE,
      stream_id      text        NOT NULL,
      stream_version integer     NOT NULL,
      account_id     text        NOT NULL,
      partition      smallint    NOT NULL,
      type           text        NOT NULL,
      version        integer     NOT NULL,
      occurred_at    timestamptz NOT NULL,
      causation_id   text,
      correlation_id text,
      payload        jsonb       NOT NULL,
      CONSTRAINT events_stream_version_unique UNIQUE (stream_id, stream_version)
    );
    CREATE INDEX events_commit_order ON events (tx_id, seq);
    CREATE INDEX events_partition_order ON events (partition, tx_id, seq);

    -- Where each consumer group is, per partition of its source ('log' or a Kafka topic). Written in
    -- the same transaction as the consumer's own writes.
    CREATE TABLE subscription_checkpoints (
      group_id     text        NOT NULL,
      source       text        NOT NULL,
      partition    integer     NOT NULL,
      tx_id        xid8        NOT NULL,
      seq          bigint      NOT NULL,
      kafka_offset bigint,
      updated_at   timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (group_id, source, partition)
    );

    -- An event a group's handler kept failing on, set aside with the reason so the group goes on;
    -- an operator replays it after the fix (never silently skipped).
    CREATE TABLE dead_letters (
      group_id    text        NOT NULL,
      event_id    text        NOT NULL,
      event_type  text        NOT NULL,
      account_id  text        NOT NULL,
      error       text        NOT NULL,
      attempts    integer     NOT NULL,
      failed_at   timestamptz NOT NULL DEFAULT now(),
      replayed_at timestamptz,
      PRIMARY KEY (group_id, event_id)
    );

    -- Live members of the embedded log's consumer groups, for sharing partitions.
    CREATE TABLE subscription_members (
      group_id     text        NOT NULL,
      member_id    text        NOT NULL,
      heartbeat_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (group_id, member_id)
    );
  `,
};

/** Virtual partitions of the embedded log. Fixed: an account's partition must never change. */
export const LOG_PARTITIONS = 16;

/** FNV-1a: stable across processes and versions, unlike anything seeded. */
export const partitionOf = (accountId: string, partitions = LOG_PARTITIONS): number => {
  let h = 0x811c9dc5;
  for (let i = 0; i < accountId.length; i++) {
    h ^= accountId.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % partitions;
};
