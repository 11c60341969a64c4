/**
 * The SSRF guard, table-driven: hostile URLs in every spelling we know of, host names that resolve
 * to refused addresses (through an injected resolver: no DNS traffic), and public addresses that
 * must pass (classification only, nothing is connected to).
 */
import t from 'tap';
import { createGuard } from '../../../infra/http/guard.ts';
import type { GuardReason } from '../../../infra/http/guardError.ts';
import { GuardError } from '../../../infra/http/guardError.ts';
import type { ResolvedAddress, Resolver } from '../../../infra/http/resolver.ts';

const fakeDns: Record<string, string[]> = {
  'internal.test': ['10.0.0.5'],
  'mixed.test': ['93.184.216.34', '127.0.0.1'],
  'mixed-v6.test': ['2606:4700:4700::1111', 'fd00::7'],
  'v6-loopback.test': ['::1'],
  'mapped.test': ['::ffff:127.0.0.1'],
  'metadata.test': ['169.254.169.254'],
  'nat64.test': ['64:ff9b::a00:1'],
  'sixtofour.test': ['2002:c0a8:101::1'],
  'zoned.test': ['fe80::1%eth0'],
  'cgnat.test': ['100.100.100.100'],
  'unspecified.test': ['0.0.0.0'],
  'sitelocal.test': ['fec0::1'],
  'empty.test': [],
  'public.test': ['93.184.216.34', '2606:4700:4700::1111'],
  'public-mapped.test': ['::ffff:8.8.8.8'],
};
const resolver: Resolver = async (host) => {
  const answers = fakeDns[host];
  if (!answers) throw new Error(`getaddrinfo ENOTFOUND ${host}`);
  return answers.map((address): ResolvedAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
};
const guard = createGuard({ allowPrivateAddresses: false, resolver });

// [url, expected reason, what it shows]
const hostile: [string, GuardReason, string][] = [
  ['http://127.0.0.1/', 'blocked_address', 'loopback'],
  ['http://2130706433/', 'blocked_address', 'decimal IPv4 (127.0.0.1)'],
  ['http://0177.0.0.1/', 'blocked_address', 'octal IPv4'],
  ['http://0x7f.1/', 'blocked_address', 'hex, short form'],
  ['http://0x7f000001/', 'blocked_address', 'hex, one number'],
  ['http://017700000001/', 'blocked_address', 'octal, one number'],
  ['http://127.1/', 'blocked_address', 'short form 127.1'],
  ['http://127.0.0.1./', 'blocked_address', 'trailing dot'],
  ['http://0/', 'blocked_address', '0 = 0.0.0.0'],
  ['http://0.0.0.0:8080/', 'blocked_address', 'unspecified'],
  ['http://\uff11\uff12\uff17.0.0.1/', 'blocked_address', 'full-width digits'],
  ['http://0x0a.0x00.0x00.0x01/', 'blocked_address', 'mixed hex octets (10.0.0.1)'],
  ['http://10.1/', 'blocked_address', 'short form private (10.0.0.1)'],
  ['http://192.168.257/', 'blocked_address', 'three-part form (192.168.1.1)'],
  ['http://172.16.0.1/', 'blocked_address', 'private 172.16/12'],
  ['http://169.254.169.254/latest/meta-data/', 'blocked_address', 'cloud metadata (link-local)'],
  ['http://100.64.0.1/', 'blocked_address', 'CGNAT 100.64/10'],
  ['http://224.0.0.1/', 'blocked_address', 'multicast'],
  ['http://255.255.255.255/', 'blocked_address', 'broadcast'],
  ['http://192.0.2.1/', 'blocked_address', 'documentation (TEST-NET-1)'],
  ['http://198.18.0.1/', 'blocked_address', 'benchmarking'],
  ['http://240.0.0.1/', 'blocked_address', 'reserved 240/4'],
  ['http://[::1]/', 'blocked_address', 'IPv6 loopback'],
  ['http://[0:0:0:0:0:0:0:1]/', 'blocked_address', 'IPv6 loopback, long form'],
  ['http://[::]/', 'blocked_address', 'IPv6 unspecified'],
  ['http://[::ffff:127.0.0.1]/', 'blocked_address', 'IPv4-mapped, dotted'],
  ['http://[::ffff:7f00:1]/', 'blocked_address', 'IPv4-mapped, hex'],
  ['http://[0:0:0:0:0:ffff:127.0.0.1]/', 'blocked_address', 'IPv4-mapped, long form'],
  ['http://[::ffff:a9fe:a9fe]/', 'blocked_address', 'IPv4-mapped metadata address'],
  ['http://[::ffff:0:7f00:1]/', 'blocked_address', 'IPv4-translated (SIIT)'],
  ['http://[::127.0.0.1]/', 'blocked_address', 'IPv4-compatible'],
  ['http://[fe80::1]/', 'blocked_address', 'link-local'],
  ['http://[fe80::1%25eth0]/', 'invalid_url', 'zone id (the URL parser refuses it)'],
  ['http://[fc00::1]/', 'blocked_address', 'unique local fc00::/7'],
  ['http://[fd12:3456::1]/', 'blocked_address', 'unique local fd00::/8'],
  ['http://[fec0::1]/', 'blocked_address', 'site-local fec0::/10'],
  ['http://[ff02::1]/', 'blocked_address', 'IPv6 multicast'],
  ['http://[64:ff9b::7f00:1]/', 'blocked_address', 'NAT64 of 127.0.0.1'],
  ['http://[64:ff9b:1::a00:1]/', 'blocked_address', 'local-use NAT64'],
  ['http://[2002:7f00:1::1]/', 'blocked_address', '6to4 of 127.0.0.1'],
  ['http://[2002:a00:1::1]/', 'blocked_address', '6to4 of 10.0.0.1'],
  ['http://[2001:0:7f00:1::]/', 'blocked_address', 'Teredo with a loopback server'],
  ['http://[2001:db8::1]/', 'blocked_address', 'IPv6 documentation'],
  ['http://[100::1]/', 'blocked_address', 'IPv6 discard-only'],
  ['http://localhost/', 'blocked_address', 'localhost'],
  ['http://LOCALHOST./', 'blocked_address', 'localhost, upper case with trailing dot'],
  ['http://api.localhost/', 'blocked_address', '*.localhost'],
  ['ftp://example.com/', 'scheme', 'ftp'],
  ['file:///etc/passwd', 'scheme', 'file'],
  ['gopher://example.com:70/', 'scheme', 'gopher'],
  ['javascript:alert(1)', 'scheme', 'javascript'],
  ['data:text/html,<h1>x</h1>', 'scheme', 'data'],
  ['http://user:secret@example.com/', 'credentials', 'user and password'],
  ['http://user@example.com/', 'credentials', 'user only'],
  ['http://example.com:25/', 'port', 'SMTP port'],
  ['http://example.com:6667/', 'port', 'IRC port'],
  ['not a url', 'invalid_url', 'no scheme'],
  ['http://1.2.3.4.5/', 'invalid_url', 'five-part IPv4'],
  ['http://256.0.0.1/', 'invalid_url', 'octet out of range'],
  [`http://example.com/${'a'.repeat(2100)}`, 'invalid_url', 'longer than 2048 characters'],
];

t.test('hostile URLs are refused before any DNS', async (t) => {
  t.ok(hostile.length >= 30, `${hostile.length} hostile URLs`);
  for (const [url, reason, what] of hostile) {
    t.throws(() => guard.checkUrl(url), { name: 'GuardError', reason }, `${what}: ${url.slice(0, 60)}`);
  }
});

t.test('the same URLs are refused by resolveTarget, the webhook path', async (t) => {
  for (const [url, reason, what] of hostile) {
    await t.rejects(guard.resolveTarget(url), { name: 'GuardError', reason }, what);
  }
});

// [host, expected reason, what it shows]
const hostileNames: [string, GuardReason, string][] = [
  ['internal.test', 'blocked_address', 'resolves to a private address'],
  ['mixed.test', 'blocked_address', 'one public and one loopback answer: any refused address refuses'],
  ['mixed-v6.test', 'blocked_address', 'public IPv6 plus unique-local IPv6'],
  ['v6-loopback.test', 'blocked_address', 'AAAA ::1'],
  ['mapped.test', 'blocked_address', 'AAAA ::ffff:127.0.0.1'],
  ['metadata.test', 'blocked_address', 'A 169.254.169.254'],
  ['nat64.test', 'blocked_address', 'AAAA NAT64 of 10.0.0.1'],
  ['sixtofour.test', 'blocked_address', 'AAAA 6to4 of 192.168.1.1'],
  ['zoned.test', 'blocked_address', 'link-local with a zone id'],
  ['cgnat.test', 'blocked_address', 'CGNAT'],
  ['unspecified.test', 'blocked_address', 'A 0.0.0.0'],
  ['sitelocal.test', 'blocked_address', 'site-local'],
  ['empty.test', 'dns_failed', 'no addresses at all'],
  ['nxdomain.test', 'dns_failed', 'resolver error'],
];

t.test('host names resolving to refused addresses are refused', async (t) => {
  for (const [host, reason, what] of hostileNames) {
    await t.rejects(guard.resolveTarget(`https://${host}/`), { name: 'GuardError', reason }, `${what} (${host})`);
  }
  await t.rejects(guard.resolveTarget('https://mixed.test/'), {
    message: /mixed\.test resolves to 127\.0\.0\.1, which is not public \(loopback\)/,
  });
});

t.test('the lookup given to HTTP agents fails closed the same way', async (t) => {
  const lookup = (host: string, opts: object) =>
    new Promise<unknown>((resolve, reject) =>
      guard.lookup(host, opts, (err, address, family) => (err ? reject(err) : resolve({ address, family }))),
    );
  await t.rejects(lookup('internal.test', {}), GuardError);
  await t.rejects(lookup('mixed.test', { all: true }), { name: 'GuardError', reason: 'blocked_address' });
  t.same(await lookup('public.test', {}), { address: '93.184.216.34', family: 4 });
  t.same(await lookup('public.test', { all: true }), {
    address: [
      { address: '93.184.216.34', family: 4 },
      { address: '2606:4700:4700::1111', family: 6 },
    ],
    family: undefined,
  });
  t.same(await lookup('public.test', { family: 6 }), { address: '2606:4700:4700::1111', family: 6 });
});

t.test('public addresses pass (classification only, nothing is connected to)', async (t) => {
  const allowed: [string, string][] = [
    ['http://93.184.216.34/', '93.184.216.34'],
    ['https://8.8.8.8:8443/x', '8.8.8.8'],
    ['http://[2606:4700:4700::1111]/', '2606:4700:4700::1111'],
    ['http://[::ffff:8.8.8.8]/', '::ffff:808:808'],
    ['http://[64:ff9b::808:808]/', '64:ff9b::808:808'],
    ['http://[2002:808:808::1]/', '2002:808:808::1'],
    ['https://public.test/', '93.184.216.34'],
    ['https://public-mapped.test/', '::ffff:8.8.8.8'],
  ];
  for (const [url, address] of allowed) {
    const target = await guard.resolveTarget(url);
    t.equal(target.address, address, url);
  }
  t.equal(guard.checkUrl('HTTPS://Example.COM:443/a b?q=1#f').href, 'https://example.com/a%20b?q=1#f', 'normalised');
  t.equal(guard.checkUrl('http://example.com:8080/').port, '8080', 'ordinary non-default ports are allowed');
});

t.test('ALLOW_PRIVATE_ADDRESSES lifts the address rules only', async (t) => {
  const open = createGuard({ allowPrivateAddresses: true, resolver });
  t.equal((await open.resolveTarget('http://2130706433:8080/')).address, '127.0.0.1');
  t.equal((await open.resolveTarget('http://internal.test/')).address, '10.0.0.5');
  t.equal(open.checkUrl('http://localhost:3000/').hostname, 'localhost');
  t.throws(() => open.checkUrl('file:///etc/passwd'), { name: 'GuardError', reason: 'scheme' });
  t.throws(() => open.checkUrl('http://a:b@127.0.0.1/'), { name: 'GuardError', reason: 'credentials' });
  t.throws(() => open.checkUrl('http://127.0.0.1:25/'), { name: 'GuardError', reason: 'port' });
});

t.test('https only for webhooks', async (t) => {
  const hooks = createGuard({ allowPrivateAddresses: false, httpsOnly: true, resolver });
  t.throws(() => hooks.checkUrl('http://public.test/'), { reason: 'scheme', message: /must be https/ });
  t.equal((await hooks.resolveTarget('https://public.test/hook')).hostname, 'public.test');
});
