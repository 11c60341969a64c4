import t from 'tap';
import { createHmac } from 'node:crypto';
import { signatureHeader } from '../../../services/webhooks/signature.ts';

// A reference vector computed by hand from spec 6: HMAC-SHA256(secret, "<t>.<raw body>"), hex.
t.test('the header is t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">', async (t) => {
  const body = '{"event":"audit.completed","job":{"id":"job_1"},"apiVersion":"v1.4"}';
  const expected = createHmac('sha256', 'whsec_test').update(`1767225600.${body}`).digest('hex');
  t.equal(signatureHeader('whsec_test', body, 1767225600), `t=1767225600,v1=${expected}`);
  t.match(signatureHeader('whsec_test', body, 1767225600), /^t=\d+,v1=[0-9a-f]{64}$/);
  t.not(
    signatureHeader('whsec_test', body, 1767225601),
    signatureHeader('whsec_test', body, 1767225600),
    'each t signs differently',
  );
});
