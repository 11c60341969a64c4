import t from 'tap';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../../infra/local/freePort.ts';
import { signatureHeader } from '../../../services/webhooks/signature.ts';
import { eventually } from '../../helpers/db.ts';

/** The receiver example of docs/api-notes.md, run as written, against signed and unsigned requests. */
t.test('the documented Node receiver verifies, enforces the tolerance and drops duplicates', async (t) => {
  const doc = readFileSync(new URL('../../../docs/api-notes.md', import.meta.url), 'utf8');
  const code = /## Receiver example[\s\S]*?```js\n([\s\S]*?)```/.exec(doc)?.[1];
  t.ok(code, 'the example is in docs/api-notes.md');
  const dir = mkdtempSync(join(tmpdir(), 'receiver-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'receiver.mjs'), code!);
  const port = await freePort();
  const secret = 'whsec_docs_example';
  const child = spawn(process.execPath, [join(dir, 'receiver.mjs')], {
    env: { ...process.env, WEBHOOK_SECRET: secret, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  t.teardown(() => {
    child.kill('SIGKILL');
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  await eventually(async () => out.includes('listening'), 10_000, 'the example to listen');

  const body = JSON.stringify({
    event: 'audit.failed',
    job: { id: 'job_doc', status: 'error', errorCode: 'crawl_failed' },
    apiVersion: 'v1.4',
  });
  const now = Math.floor(Date.now() / 1000);
  const post = async (payload: string, signature: string, delivery = 'job_doc') => {
    const res = await fetch(`http://127.0.0.1:${port}/`, {
      method: 'POST',
      body: payload,
      headers: { 'content-type': 'application/json', 'x-service-signature': signature, 'x-service-delivery': delivery },
    });
    return `${res.status} ${await res.text()}`;
  };
  t.equal(await post(body, signatureHeader(secret, body, now)), '200 ok', 'a signed delivery is accepted');
  t.equal(
    await post(body, signatureHeader(secret, body, now + 1)),
    '200 duplicate',
    'the same X-Service-Delivery again is dropped with a 2xx',
  );
  t.equal(
    await post(body, signatureHeader('wrong', body, now), 'job_2'),
    '401 bad signature',
    'another secret is refused',
  );
  t.equal(
    await post(body.replace('error', 'completed'), signatureHeader(secret, body, now), 'job_3'),
    '401 bad signature',
    'a changed body is refused',
  );
  t.equal(
    await post(body, signatureHeader(secret, body, now - 301), 'job_4'),
    '401 bad signature',
    'a t older than 300 s is refused',
  );
  t.equal(
    await post(body, signatureHeader(secret, body, now - 290), 'job_5'),
    '200 ok',
    'within the tolerance it passes',
  );
  t.equal(await post(body, 'garbage', 'job_6'), '401 bad signature', 'a malformed header is refused');
  await eventually(
    async () => out.includes('audit.failed job_doc error crawl_failed'),
    5_000,
    'the example to handle the event',
  );
});
