import { sleep } from '../../core/sleep.ts';
import { accountStreamId } from '../../events/account/index.ts';
import type { Pool } from '../../infra/postgres/pool.ts';
import { ledgerBalance } from '../../projections/ledger/queries.ts';
import type { Submission } from './checker.ts';
import type { Sites } from './sites.ts';

export interface Account {
  accountId: string;
  apiKey: string;
}

/** A submission: every 20th a 3-URL batch, every 7th shared, every 5th with a webhook. */
function requestOf(i: number, sites: Sites): { path: string; body: unknown; audits: number } {
  const audit = (n: number) => ({ url: `${sites.site}/article/${n}`, keyword: 'descale espresso machine' });
  if (i % 20 === 19)
    return {
      path: '/api/v1/audits/bulk',
      body: { urls: [0, 1, 2].map((k) => audit(i * 10 + k)), webhookUrl: sites.webhookUrl },
      audits: 3,
    };
  return {
    path: '/api/v1/audits',
    body: {
      ...audit(i),
      ...(i % 7 === 0 ? { share: true } : {}),
      ...(i % 5 === 0 ? { webhookUrl: sites.webhookUrl } : {}),
    },
    audits: 1,
  };
}

/**
 * Each account submits its share in turn, alternating between the two API processes, with the same
 * Idempotency-Key on every retry (an answer lost in a fault never makes a second audit). A 429 (the
 * per-account concurrency limit) or 409 (one batch at a time) restarts the wait: only time lost to
 * faults counts.
 */
export async function submitAll(o: {
  apis: string[];
  accounts: Account[];
  audits: number;
  sites: Sites;
  say: (s: string) => void;
  /** Called with each single audit the API accepted (the soak's apply generations start from them). */
  onAccepted?: (jobId: string, account: Account, i: number) => void;
}): Promise<{
  acknowledged: string[];
  bulkIds: string[];
  submissions: Submission[];
  retries: number;
  answers: Record<string, number>;
}> {
  const acknowledged: string[] = [];
  // Every answer that was not an acceptance, by status (or the fetch error's name): what a retry met.
  const answers: Record<string, number> = {};
  const note = (what: string) => (answers[what] = (answers[what] ?? 0) + 1);
  const bulkIds: string[] = [];
  const submissions: Submission[] = [];
  let retries = 0;
  let submitted = 0;
  const submit = async (i: number, account: Account) => {
    const req = requestOf(i, o.sites);
    let from = Date.now();
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await fetch(`${o.apis[attempt % o.apis.length]}${req.path}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            authorization: `Bearer ${account.apiKey}`,
            'idempotency-key': `soak-${i}`,
          },
          body: JSON.stringify(req.body),
          signal: AbortSignal.timeout(30_000),
        });
        const body = (await res.json()) as { id?: string };
        if ((res.status === 202 || res.status === 200) && body.id) {
          submissions.push({ from, to: Date.now(), what: req.audits === 1 ? 'audit' : 'batch' });
          if (req.audits === 1) {
            acknowledged.push(body.id);
            o.onAccepted?.(body.id, account, i);
          } else bulkIds.push(body.id);
          return req.audits;
        }
        note(String(res.status));
        // The spec's business answers (3 audits at a time, one batch at a time) are not faults.
        if (res.status === 429 || res.status === 409) from = Date.now() + 300;
      } catch (e) {
        // a fault: the API process cut short, or its answer lost
        note((e as Error).name);
      }
      retries++;
      await sleep(300);
    }
  };
  await Promise.all(
    o.accounts.map(async (account, a) => {
      for (let i = a; submitted < o.audits; i += o.accounts.length) {
        submitted += requestOf(i, o.sites).audits;
        await submit(i, account);
      }
    }),
  );
  return { acknowledged, bulkIds, submissions, retries, answers };
}

const count = async (pool: Pool, accountIds: string[], sql: string): Promise<number> =>
  (await pool.query<{ n: number }>(sql, [accountIds])).rows[0]!.n;

/** Audits ended, plus apply generations ended (one revision stream holds every generation of an audit). */
const terminalCount = async (pool: Pool, accountIds: string[]): Promise<number> =>
  (await count(
    pool,
    accountIds,
    `SELECT count(DISTINCT stream_id)::int AS n FROM events WHERE type IN ('AuditCompleted', 'AuditFailed') AND account_id = ANY($1)`,
  )) +
  (await count(
    pool,
    accountIds,
    `SELECT count(DISTINCT payload->>'revisionId')::int AS n FROM events WHERE type IN ('RevisionGenerated', 'RevisionFailed') AND account_id = ANY($1)`,
  ));

const requestedCount = async (pool: Pool, accountIds: string[]): Promise<number> =>
  count(
    pool,
    accountIds,
    `SELECT count(*)::int AS n FROM events WHERE type IN ('AuditRequested', 'RevisionRequested') AND account_id = ANY($1)`,
  );

/** Polls until every requested audit and apply generation of these accounts is terminal, or `minutes` pass. */
export async function waitForTerminal(pool: Pool, accountIds: string[], minutes: number, say: (s: string) => void) {
  const deadline = Date.now() + minutes * 60_000;
  for (let shown = 0; Date.now() < deadline; await sleep(2000)) {
    try {
      const [done, all] = [await terminalCount(pool, accountIds), await requestedCount(pool, accountIds)];
      if (done >= all) return;
      if (Date.now() - shown > 30_000) {
        say(`${done}/${all} audits and generations terminal`);
        shown = Date.now();
      }
    } catch {
      // PostgreSQL is down for a while: that is the point
    }
  }
}

/** Waits (bounded) for every consumer group at lag 0 and the read models showing the store; returns the lags. */
export async function waitForLagZero(api: string, pool: Pool, accountIds: string[], say: (s: string) => void) {
  let lags: Record<string, number> = {};
  for (const until = Date.now() + 300_000; Date.now() < until; await sleep(1000)) {
    try {
      const ready = (await (await fetch(`${api}/readyz`)).json()) as { checks: Record<string, { lag?: number }> };
      lags = Object.fromEntries(
        Object.entries(ready.checks).flatMap(([g, c]) => (c.lag === undefined ? [] : [[g, c.lag]])),
      );
      if (
        Object.keys(lags).length > 0 &&
        Object.values(lags).every((l) => l === 0) &&
        (await ledgersCaughtUp(pool, accountIds))
      )
        return lags;
    } catch {
      // the API is restarting
    }
  }
  say(`projections still lagging: ${JSON.stringify(lags)}`);
  return lags;
}

/** Lag 0 is measured against Kafka; the ledger projection must also have reached each account stream's end. */
async function ledgersCaughtUp(pool: Pool, accountIds: string[]): Promise<boolean> {
  for (const id of accountIds) {
    const v = (
      await pool.query<{ v: number }>(
        `SELECT coalesce(max(stream_version), 0)::int AS v FROM events WHERE stream_id = $1`,
        [accountStreamId(id)],
      )
    ).rows[0]!.v;
    if ((await ledgerBalance(pool, id)).streamVersion < v) return false;
  }
  return true;
}
