import t from 'tap';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadConfig } from '../../../infra/config.ts';
import { eventually } from '../../helpers/db.ts';
import { auditApi, bearer } from '../api/audits/fixtures/auditApi.ts';
import { applyRole, completedTextAudit, ledgerTrue } from './fixtures.ts';

type Item = { id: string; selectable: boolean; authorDataOnly: boolean; after: string };
type Mode = 'ok' | 'not-json' | 'no-choices' | 'empty' | 'hang' | 'script';

/**
 * The optional writer port (issue 13 point 7) against a local server answering in the OpenAI Chat
 * Completions shape: items it can write become selectable and their text lands in the article,
 * sanitised and measured; a model that times out or answers garbage fails the generation, refunded.
 */
t.test('apply with a writer model', async (t) => {
  let mode: Mode = 'ok';
  const requests: { path: string; body: any; auth: string | undefined }[] = [];
  const readBody = async (req: IncomingMessage) => {
    let b = '';
    for await (const c of req) b += c;
    return b;
  };
  const llm = createServer(async (req, res) => {
    const body = JSON.parse(await readBody(req));
    requests.push({ path: req.url ?? '', body, auth: req.headers.authorization });
    const snippet = String(body.messages?.at(-1)?.content ?? '').split('The snippet to complete:\n')[1] ?? '';
    const filled = snippet.replace(
      /\[[^\]\n]*\]/g,
      'a plain answer written by the model about descaling with citric acid',
    );
    const answer = (content: string) =>
      JSON.stringify({
        id: 'chatcmpl-1',
        object: 'chat.completion',
        model: body.model,
        choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
      });
    if (mode === 'hang') return; // never answers: the client's timeout
    res.writeHead(200, { 'content-type': 'application/json' });
    if (mode === 'ok') res.end(answer(filled));
    else if (mode === 'script') res.end(answer(`${filled}\n\n<script>alert(1)</script><img src=x onerror="alert(2)">`));
    else if (mode === 'not-json') res.end('I am a teapot, not JSON');
    else if (mode === 'no-choices') res.end(JSON.stringify({ id: 'x', object: 'chat.completion', choices: [] }));
    else res.end(answer('   '));
  });
  await new Promise<void>((r) => llm.listen(0, '127.0.0.1', r));
  t.teardown(
    () =>
      new Promise<void>((r) => {
        llm.closeAllConnections();
        llm.close(() => r());
      }),
  );
  const url = `http://127.0.0.1:${(llm.address() as AddressInfo).port}/v1`;

  t.test('configuration: off by default, both URL and model or neither', async (t) => {
    t.equal(loadConfig({}).applyLlm, null, 'off by default');
    t.match(
      loadConfig({ APPLY_LLM_URL: url, APPLY_LLM_MODEL: 'm', APPLY_LLM_KEY: 'k', APPLY_LLM_TIMEOUT_MS: '1500' })
        .applyLlm,
      { url, model: 'm', apiKey: 'k', timeoutMs: 1500 },
    );
    t.throws(() => loadConfig({ APPLY_LLM_URL: url }), /APPLY_LLM_URL and APPLY_LLM_MODEL go together/);
    t.throws(() => loadConfig({ APPLY_LLM_URL: 'ftp://x', APPLY_LLM_MODEL: 'm' }), /must be an http/);
  });

  const f = await auditApi(t, { rateLimits: { apply: 1000 }, applyWriter: true });
  const off = await auditApi(t, { rateLimits: { apply: 1000 } });
  applyRole(t, f.pool, { url, model: 'local-writer', apiKey: 'secret-key', timeoutMs: 1500 });
  const a = await f.account({ credits: 20 });
  // With People Also Ask questions: the FAQ block's answers are what the model writes (the
  // recommendations themselves carry no gaps since issue 23: author tasks instead).
  const { auditId, jobId } = await completedTextAudit(f.pool, a.accountId, undefined, {
    searchVolume: 100,
    serpOrganicCount: 0,
    paa: ['How often should you descale an espresso machine?', 'Can you descale with vinegar?'],
    related: [],
    competitors: [],
  });
  await f.waitFor(a.accountId, auditId, (r) => r.status === 'completed');
  const inject = (method: 'GET' | 'POST', path: string, payload?: object) =>
    f.app.inject({ method, url: `/api/v1${path}`, headers: bearer(a.apiKey), ...(payload ? { payload } : {}) });
  const items = (await inject('GET', `/audits/${jobId}/apply/items`)).json().items as Item[];
  // The same audit through an API without the model: what the model writes is not selectable there.
  const offItems = (
    await off.app.inject({ method: 'GET', url: `/api/v1/audits/${jobId}/apply/items`, headers: bearer(a.apiKey) })
  ).json();
  // A gap is a bracket that is not a Markdown link's text (the table of contents has links).
  const written = items.filter((i) => i.selectable && /\[[^\]]+\](?!\()/.test(i.after));
  t.ok(written.length >= 1, `items the model writes: ${written.map((i) => i.id).join(', ')}`);
  for (const w of written)
    t.equal(
      offItems.items?.find((i: Item) => i.id === w.id)?.selectable ?? false,
      false,
      `${w.id} is not selectable without the model`,
    );
  for (const i of items.filter((x) => /\[[^\]]*(own practice|exact value|price)/i.test(x.after)))
    t.equal(i.selectable, false, `${i.id} needs the author's facts: still not selectable`);

  const run = async (m: Mode, selectedIds: string[]) => {
    mode = m;
    const r = await inject('POST', `/audits/${jobId}/apply`, { selectedIds, force: true });
    t.equal(r.statusCode, 202, `${m}: started`);
    let body: any;
    await eventually(
      async () => {
        body = (await inject('GET', `/audits/${jobId}/apply/${r.json().revisionId}`)).json();
        return body.status !== 'generating';
      },
      30_000,
      `the ${m} generation`,
    );
    return body;
  };
  const sel = written.map((i) => i.id);
  const before = await ledgerTrue(t, f.pool, a.accountId);
  const ok = await run('ok', sel);
  t.equal(ok.status, 'completed');
  t.match(
    requests.at(-1),
    { path: '/v1/chat/completions', auth: 'Bearer secret-key', body: { model: 'local-writer' } },
    'the documented request shape',
  );
  t.ok(Array.isArray(requests.at(-1)!.body.messages) && requests.at(-1)!.body.messages[0].role === 'system');
  const landed = ok.result.appliedIds.filter((id: string) => sel.includes(id));
  t.ok(
    landed.length + ok.result.skipped.filter((s: any) => sel.includes(s.id)).length === sel.length,
    'each written item applied or skipped with a reason',
  );
  if (landed.length)
    t.match(ok.result.markdown, /a plain answer written by the model/, 'the model text is in the article');
  t.notMatch(ok.result.markdown, /\[fill in/, 'no gap left');
  t.match(ok.result.previewHtml, /class="new"/, 'diffed in the preview');
  t.equal(await ledgerTrue(t, f.pool, a.accountId), before - 1, 'one credit');

  const hostile = await run('script', sel);
  t.equal(hostile.status, 'completed');
  t.notMatch(hostile.result.markdown, /<script|onerror|<img/i, 'markup from the model is dropped');

  for (const m of ['not-json', 'no-choices', 'empty', 'hang'] as const) {
    const credits = await ledgerTrue(t, f.pool, a.accountId);
    const failed = await run(m, sel);
    t.equal(failed.status, 'failed', `${m}: the generation fails`);
    t.match(failed.error, m === 'hang' ? /did not answer within 1500 ms/ : /writer model/, `${m}: ${failed.error}`);
    t.equal(await ledgerTrue(t, f.pool, a.accountId), credits, `${m}: charged and refunded (a ledger entry)`);
  }
  const refunds = await f.pool.query(
    `SELECT count(*)::int AS n FROM events WHERE stream_id = $1 AND type = 'CreditRefunded'`,
    [`account-${a.accountId}`],
  );
  t.equal(refunds.rows[0].n, 4, 'four refunds on the ledger');
});
