import t from 'tap';
import { createGuard } from '../../../infra/http/guard.ts';
import { validateWebhookUrl } from '../../../infra/http/validateUrl.ts';
import { sendOnce, type Delivery } from '../../../services/webhooks/send.ts';
import { startWebhookReceiver, testCa } from '../../helpers/webhookReceiver.ts';
import { verifyFromSpec } from './verify.ts';

/** A resolver standing in for DNS: every name answers with the loopback address. */
const toLoopback = async () => [{ address: '127.0.0.1', family: 4 as const }];
const delivery = (url: string): Delivery => ({
  url,
  event: 'audit.completed',
  deliveryId: 'job_dns',
  body: '{"event":"audit.completed"}',
  secret: 'whsec_dns',
});

t.test('a host name that resolves to a private address passes acceptance but is refused at delivery', async (t) => {
  const receiver = await startWebhookReceiver(t);
  const port = new URL(receiver.base).port;
  const url = `https://hooks.public.test:${port}/dns`;
  t.equal(
    validateWebhookUrl(url, { allowPrivateAddresses: false }),
    url,
    'acceptance cannot know what the name resolves to',
  );
  const guard = createGuard({ allowPrivateAddresses: false, httpsOnly: true, resolver: toLoopback });
  const result = await sendOnce(delivery(url), { guard, timeoutMs: 10_000, extraCa: testCa });
  t.match(result, { status: null, error: 'blocked_address', detail: /hooks\.public\.test resolves to 127\.0\.0\.1/ });
  t.equal(receiver.requestsTo('/dns').length, 0, 'nothing was sent');
});

t.test('the POST goes to the checked address, with the host name kept for TLS and Host', async (t) => {
  const receiver = await startWebhookReceiver(t);
  const port = new URL(receiver.base).port;
  const guard = createGuard({ allowPrivateAddresses: true, httpsOnly: true, resolver: toLoopback });
  const result = await sendOnce(delivery(`https://public.test:${port}/named`), {
    guard,
    timeoutMs: 10_000,
    extraCa: testCa,
  });
  t.match(result, { status: 200, error: null });
  const [r] = receiver.requestsTo('/named');
  t.equal(r!.headers.host, `public.test:${port}`);
  t.equal(verifyFromSpec(r!, 'whsec_dns'), null);
});

t.test('an untrusted certificate is an attempt that failed, not a delivery', async (t) => {
  const receiver = await startWebhookReceiver(t);
  const guard = createGuard({ allowPrivateAddresses: true, httpsOnly: true });
  const result = await sendOnce(delivery(receiver.script('/untrusted', [200])), { guard, timeoutMs: 10_000 });
  t.match(result, { status: null, error: 'network', detail: /self-signed|certificate/i });
  t.equal(receiver.requestsTo('/untrusted').length, 0);
});
