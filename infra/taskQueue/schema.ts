import type { Migration } from '../postgres/migrate.ts';

export const contentAndTasksMigration: Migration = {
  id: '0004_content_and_tasks',
  sql: `
    CREATE TABLE content_blobs (
      ref        text        PRIMARY KEY,
      body       text        NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    );

    -- Slow work (fetching, scoring) as leased tasks: a consumer records them from events, workers
    -- claim them with SKIP LOCKED outside any consumer transaction, and a task whose worker died
    -- is claimed again when its lease runs out.
    CREATE TABLE pipeline_tasks (
      task_id     text        PRIMARY KEY,
      kind        text        NOT NULL,
      account_id  text        NOT NULL,
      subject_id  text        NOT NULL,
      status      text        NOT NULL DEFAULT 'pending',
      attempts    integer     NOT NULL DEFAULT 0,
      lease_until timestamptz,
      last_error  text,
      created_at  timestamptz NOT NULL DEFAULT now(),
      done_at     timestamptz
    );
    CREATE INDEX pipeline_tasks_pending ON pipeline_tasks (kind, created_at) WHERE status = 'pending';
  `,
};
