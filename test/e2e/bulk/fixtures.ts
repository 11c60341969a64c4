import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { Test } from 'tap';
import type { Pool } from '../../../infra/postgres/pool.ts';
import { eventually } from '../../helpers/db.ts';
import { servePages, type Page } from '../../helpers/pageServer.ts';
import { withTestKey } from '../../helpers/testKey.ts';

const fixtures = new URL('../../fixtures/engine/strong/', import.meta.url);
const ARTICLES = [
  'en-howto-descale.md',
  'en-comparison-heat-pump.md',
  'en-review-ereader.md',
  'en-glossary-compound-interest.md',
  'en-news-library.md',
];
const KEYWORDS = [
  'descale espresso machine',
  'heat pump comparison',
  'ereader review',
  'compound interest',
  'library news',
];
const md = ARTICLES.map((f) => readFileSync(new URL(f, fixtures), 'utf8'));

/** A Markdown fixture as a plain HTML page: headings and paragraphs. */
export const asPage = (text: string, n: number) =>
  `<!doctype html><html><head><title>${/^# (.+)$/m.exec(text)?.[1] ?? 'Page'} (${n})</title></head><body><article>${text
    .split(/\n{2,}/)
    .map((b) =>
      /^#{1,6} /.test(b) ? `<h${b.indexOf(' ')}>${b.replace(/^#+ /, '')}</h${b.indexOf(' ')}>` : `<p>${b}</p>`,
    )
    .join('\n')}</article></body></html>`;

/** Page i of the local site: one of the English fixtures (400 to 2,000 words), with its keyword. */
export const article = (i: number) => ({
  page: { body: asPage(md[i % md.length]!, i) } satisfies Page,
  keyword: KEYWORDS[i % KEYWORDS.length]!,
});

/**
 * The local site of the bulk tests: `good` articles at /p/<i>, pages that answer 404, one slow page
 * (2 s), one PDF, and whatever `extra` pages a test adds (a held page to catch a batch mid-entry).
 */
export async function bulkSite(t: Test, good: number, extra: Record<string, Page> = {}) {
  const pages: Record<string, Page> = { ...extra };
  for (let i = 0; i < good; i++) pages[`/p/${i}`] = article(i).page;
  pages['/slow'] = { body: article(0).page.body, hold: undefined };
  pages['/file.pdf'] = { body: '%PDF-1.4 not a page', type: 'application/pdf' };
  const site = await servePages(t, pages);
  // The slow page: a fresh 2-second hold for every request.
  Object.defineProperty(pages['/slow']!, 'hold', { get: () => new Promise((r) => setTimeout(r, 2000)) });
  return site;
}

export function apiClient(base: string, apiKey: string) {
  return async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${base}/api/v1${path}`, {
      method,
      body: body === undefined ? undefined : JSON.stringify(body),
      headers: {
        authorization: `Bearer ${apiKey}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
    });
    return { status: res.status, body: (await res.json()) as any };
  };
}
export type Api = ReturnType<typeof apiClient>;

/** Polls a batch until it ends, checking at every poll that its counts sum to its total. */
export async function waitForBatch(
  t: Test,
  api: Api,
  id: string,
  until: (b: any) => boolean = (b) => ['completed', 'error', 'cancelled'].includes(b.status),
  timeoutMs = 240_000,
) {
  let last: any;
  let polls = 0;
  let badSums = 0;
  await eventually(
    async () => {
      const res = await api('GET', `/audits/bulk/${id}`);
      // Polling every 50 ms passes the read limit (600 a minute) when a loaded machine makes the
      // batch last; a client waits and asks again, as the 429 says.
      if (res.status === 429) {
        await new Promise((r) => setTimeout(r, 1000));
        return false;
      }
      last = res.body;
      polls++;
      const c = last.counts;
      if (c.completed + c.failed + c.pending + c.skipped !== c.total) badSums++;
      return until(last);
    },
    timeoutMs,
    `batch ${id}`,
  );
  t.equal(badSums, 0, `counts summed to total at each of ${polls} polls`);
  return last;
}

/**
 * Ledger truth from the account stream itself (not the ledger projection): the sum of every credit
 * movement equals the balance the API reports, and no charge is taken or refunded twice.
 */
export async function checkLedger(t: Test, pool: Pool, api: Api, accountId: string, expectedRemaining: number) {
  const r = await pool.query<{ type: string; payload: any }>(
    `SELECT type, payload FROM events WHERE stream_id = $1 AND type IN ('CreditsPurchased','CreditCharged','CreditRefunded','CreditsAdjusted') ORDER BY stream_version`,
    [`account-${accountId}`],
  );
  let sum = 0;
  const charges = new Map<string, number>();
  const refunds = new Map<string, number>();
  for (const { type, payload } of r.rows) {
    if (type === 'CreditsPurchased') sum += payload.credits;
    if (type === 'CreditCharged') {
      sum -= payload.credits;
      charges.set(payload.chargeId, (charges.get(payload.chargeId) ?? 0) + 1);
    }
    if (type === 'CreditRefunded') {
      sum += payload.credits;
      refunds.set(payload.chargeId, (refunds.get(payload.chargeId) ?? 0) + 1);
    }
    if (type === 'CreditsAdjusted') sum += payload.delta;
  }
  t.equal([...charges.values()].filter((n) => n > 1).length, 0, 'no charge taken twice');
  t.equal([...refunds.values()].filter((n) => n > 1).length, 0, 'no charge refunded twice');
  t.ok(
    [...refunds.keys()].every((k) => charges.has(k)),
    'every refund gives back a charge',
  );
  t.equal(sum, expectedRemaining, `sum of the account's credit events = ${expectedRemaining}`);
  await eventually(
    async () => (await api('GET', '/credits/usage')).body.remaining === expectedRemaining,
    30_000,
    `remaining ${expectedRemaining}`,
  );
  return { charges: charges.size, refunds: refunds.size };
}

export const serviceEnv = (dbUrl: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  HOME: process.env.HOME,
  PORT: '0',
  LOG_LEVEL: 'error',
  DATABASE_URL: dbUrl,
  KAFKA_BROKERS: process.env.KAFKA_BROKERS,
  KAFKA_TOPIC_PREFIX: `bulk${randomBytes(3).toString('hex')}`,
  ALLOW_PRIVATE_ADDRESSES: '1',
  PUBLIC_BASE_URL: 'https://audits.example',
  ...extra,
});

/** A service process without the API (e.g. only the bulk role), to be killed and restarted. */
export async function startWorkerProcess(t: Test, env: NodeJS.ProcessEnv): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/main.ts'], {
    env: withTestKey(env),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  t.teardown(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
  await eventually(
    async () => /audit service running/.test(out) || child.exitCode !== null,
    240_000,
    'the worker process to start',
  );
  if (child.exitCode !== null) throw new Error(`the worker exited with ${child.exitCode}: ${out}`);
  return child;
}
