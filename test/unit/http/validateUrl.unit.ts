import t from 'tap';
import { validateAuditUrl, validateWebhookUrl } from '../../../infra/http/validateUrl.ts';

const strict = { allowPrivateAddresses: false };

t.test('acceptance-time URL rules give invalid_request with the reason', async (t) => {
  const cases: [unknown, RegExp][] = [
    [42, /^url must be a string$/],
    ['', /^url is not allowed: the URL is empty$/],
    ['example.com/page', /^url is not allowed: "example\.com\/page" is not a valid absolute URL$/],
    ['ftp://example.com/', /^url is not allowed: the URL scheme must be http or https, got "ftp"$/],
    ['https://me:pw@example.com/', /^url is not allowed: URLs with a user name or password are not allowed$/],
    ['http://0x7f.1/', /^url is not allowed: the address 127\.0\.0\.1 is not public \(loopback\)$/],
    [
      'http://[::ffff:10.0.0.1]/',
      /^url is not allowed: the address ::ffff:a00:1 is not public \(IPv4-mapped 10\.0\.0\.1 \(private\)\)$/,
    ],
    ['http://localhost:8080/', /^url is not allowed: the host localhost is local$/],
    ['http://example.com:22/', /^url is not allowed: port 22 is not allowed$/],
  ];
  for (const [input, message] of cases) {
    t.throws(() => validateAuditUrl(input, strict), { code: 'invalid_request', status: 400, message }, String(input));
  }
});

t.test('a good URL comes back normalised', async (t) => {
  t.equal(validateAuditUrl(' HTTPS://Example.com/a b ', strict), 'https://example.com/a%20b');
  t.equal(
    validateAuditUrl('http://127.0.0.1:3000/', { allowPrivateAddresses: true }),
    'http://127.0.0.1:3000/',
    'flag on: local addresses pass',
  );
});

t.test('webhookUrl: https only', async (t) => {
  t.throws(() => validateWebhookUrl('http://hooks.example/x', strict), {
    code: 'invalid_request',
    message: /^webhookUrl is not allowed: the URL scheme must be https, got "http"$/,
  });
  t.throws(() => validateWebhookUrl('https://10.0.0.1/x', strict), { message: /not public \(private\)/ });
  t.equal(validateWebhookUrl('https://hooks.example/x', strict), 'https://hooks.example/x');
});
