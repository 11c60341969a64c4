import type { Migration } from '../postgres/migrate.ts';

/** The one channel on which commits wake the processes that have work because of them. */
export const WAKE_CHANNEL = 'work_due';
/**
 * Events were appended: the payload is `events/<partition>/<type>`, one per partition and event
 * type the statement wrote (the relay takes any; a subscriber reads the partitions named, and only
 * for the types its group handles). Before migration 0017 it was `events/<partition>`.
 */
export const EVENTS_APPENDED = 'events';

/** The partition and event type an `events/...` payload names; a type of null: any (the older form). */
export const parseEventsAppended = (payload: string): { partition: number; type: string | null } => {
  const [, partition, type] = payload.split('/');
  return { partition: Number(partition), type: type ?? null };
};
/** Payload when a task of `kind` became claimable (or its due time moved earlier). */
export const taskDue = (kind: string): string => `task/${kind}`;

/**
 * The notifier: triggers, so that every write that makes work due sends its wake-up in its own
 * transaction (PostgreSQL delivers it at commit, never for a rollback) and no code path can forget
 * it. Several notifications with the same payload in one transaction are delivered once.
 * A claim, a lease extension or a retry pushed later notifies nobody: nothing became due earlier.
 */
export const wakeOnCommitMigration: Migration = {
  id: '0016_wake_on_commit',
  sql: `
    CREATE FUNCTION wake_event_readers() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE p smallint;
    BEGIN
      FOR p IN SELECT DISTINCT partition FROM appended LOOP
        PERFORM pg_notify('${WAKE_CHANNEL}', '${EVENTS_APPENDED}/' || p);
      END LOOP;
      RETURN NULL;
    END $$;
    CREATE TRIGGER events_wake AFTER INSERT ON events REFERENCING NEW TABLE AS appended
      FOR EACH STATEMENT EXECUTE FUNCTION wake_event_readers();

    CREATE FUNCTION wake_task_workers() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.status = 'pending' AND (
           TG_OP = 'INSERT' OR OLD.status <> 'pending' OR NEW.lease_until IS NULL OR NEW.lease_until <= now()
           OR (OLD.lease_until IS NOT NULL AND NEW.lease_until < OLD.lease_until)) THEN
        PERFORM pg_notify('${WAKE_CHANNEL}', 'task/' || NEW.kind);
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER pipeline_tasks_wake AFTER INSERT OR UPDATE ON pipeline_tasks
      FOR EACH ROW EXECUTE FUNCTION wake_task_workers();
  `,
};

/**
 * The appended events' wake-up names their types too: a subscriber whose group handles none of
 * them is not woken to read them (each commit of an audit woke every group of the process, and
 * each read what was new). Those events are passed over at its next full pass, as a group passes
 * over any event it does not handle.
 */
export const wakeWithTypesMigration: Migration = {
  id: '0017_wake_with_event_types',
  sql: `
    CREATE OR REPLACE FUNCTION wake_event_readers() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE r record;
    BEGIN
      FOR r IN SELECT DISTINCT partition, type FROM appended LOOP
        PERFORM pg_notify('${WAKE_CHANNEL}', '${EVENTS_APPENDED}/' || r.partition || '/' || r.type);
      END LOOP;
      RETURN NULL;
    END $$;
  `,
};
