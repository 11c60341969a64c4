import t from 'tap';
import { parseTimeBound } from '../../../../services/api/audits/dateBounds.ts';
import { parseDomainFilter } from '../../../../services/api/audits/domainFilter.ts';
import { parseListFilters } from '../../../../services/api/audits/listQuery.ts';

t.test(
  'createdAfter / createdBefore: a bare date is a UTC day; a timestamp without a zone is UTC (spec 4.9)',
  async (t) => {
    t.same(
      parseTimeBound('2026-09-01', 'createdAfter'),
      { at: new Date('2026-09-01T00:00:00.000Z'), inclusive: true },
      'After: start of the UTC day',
    );
    t.same(
      parseTimeBound('2026-09-01', 'createdBefore'),
      { at: new Date('2026-09-02T00:00:00.000Z'), inclusive: false },
      'Before: the END of the UTC day',
    );
    t.same(parseTimeBound('2024-02-29', 'createdBefore').at, new Date('2024-03-01T00:00:00.000Z'), 'leap day');
    t.same(parseTimeBound('2026-12-31', 'createdBefore').at, new Date('2027-01-01T00:00:00.000Z'), 'year end');
    const ts: [string, string][] = [
      ['2026-09-01T12:30:00Z', '2026-09-01T12:30:00.000Z'],
      ['2026-09-01T12:30Z', '2026-09-01T12:30:00.000Z'],
      ['2026-09-01T12:30:00.123456Z', '2026-09-01T12:30:00.123Z'],
      ['2026-09-01T12:30:00+02:00', '2026-09-01T10:30:00.000Z'],
      ['2026-09-01T12:30:00-0530', '2026-09-01T18:00:00.000Z'],
      ['2026-09-01T12:30:00 02:00', '2026-09-01T10:30:00.000Z'], // an unescaped "+" arrives as a space
      ['2026-09-01t12:30:00z', '2026-09-01T12:30:00.000Z'],
      ['2026-09-01T12:30:00', '2026-09-01T12:30:00.000Z'], // no zone: UTC
      ['2026-09-01T12:30', '2026-09-01T12:30:00.000Z'],
      ['2026-09-01T12:30:00.250', '2026-09-01T12:30:00.250Z'],
    ];
    for (const [raw, iso] of ts) {
      t.same(parseTimeBound(raw, 'createdBefore'), { at: new Date(iso), inclusive: true }, raw);
    }
    const bad = [
      '2026-9-1',
      '2026-02-30',
      '2025-02-29',
      '2026-13-01',
      '01/09/2026',
      '2026-09-01T12',
      '2026-09-01T25:00',
      '2026-09-01T25:00Z',
      '2026-09-01T12:60Z',
      '2026-09-01T12:30:00+24:00',
      'yesterday',
      '1756684800',
      '2026-09-01 12:30:00Z',
      '',
    ];
    for (const raw of bad) {
      t.throws(
        () => parseTimeBound(raw, 'createdAfter'),
        {
          code: 'invalid_request',
          message: `createdAfter must be a date (YYYY-MM-DD) or an ISO 8601 timestamp (e.g. 2026-09-01T12:00:00Z; without a zone it is UTC); got ${JSON.stringify(raw)}`,
        },
        `"${raw}"`,
      );
    }
  },
);

t.test('inverted ranges are a 400; a one-day range is not', async (t) => {
  t.doesNotThrow(
    () => parseListFilters({ createdAfter: '2026-09-01', createdBefore: '2026-09-01' }),
    'the same day: that whole day',
  );
  t.doesNotThrow(() => parseListFilters({ createdAfter: '2026-09-01T23:59:59Z', createdBefore: '2026-09-01' }));
  t.doesNotThrow(
    () => parseListFilters({ createdAfter: '2026-09-01T10:00:00Z', createdBefore: '2026-09-01T10:00:00Z' }),
    'equal instants: inclusive',
  );
  const message = (a: string, b: string) => `createdAfter (${a}) is later than createdBefore (${b})`;
  t.throws(() => parseListFilters({ createdAfter: '2026-09-02', createdBefore: '2026-09-01' }), {
    code: 'invalid_request',
    message: message('2026-09-02', '2026-09-01'),
  });
  t.throws(() => parseListFilters({ createdAfter: '2026-09-01T10:00:01Z', createdBefore: '2026-09-01T10:00:00Z' }), {
    message: message('2026-09-01T10:00:01Z', '2026-09-01T10:00:00Z'),
  });
  t.throws(
    () => parseListFilters({ createdAfter: '2026-09-02T00:00:00Z', createdBefore: '2026-09-01' }),
    { message: /is later than/ },
    'the instant after the day ends',
  );
});

t.test('domain: host or full address, www ignored, invalid refused (spec 4.9)', async (t) => {
  const good: [string, string][] = [
    ['example.com', 'example.com'],
    ['Example.COM', 'example.com'],
    ['www.example.com', 'example.com'],
    ['https://www.example.com/blog/post?x=1#y', 'example.com'],
    ['http://blog.example.com:8080/', 'blog.example.com'],
    ['example.com.', 'example.com'],
    ['example.com/path', 'example.com'],
    ['bücher.de', 'xn--bcher-kva.de'],
    ['203.0.113.7', '203.0.113.7'],
    ['foo.github.io', 'foo.github.io'],
    ['example.co.uk', 'example.co.uk'],
  ];
  for (const [raw, host] of good) t.equal(parseDomainFilter(raw), host, raw);
  const bad = [
    'http://',
    'exa mple.com',
    '-example.com',
    'example-.com',
    'foo..com',
    '*.example.com',
    'ex_ample.com',
    '.example.com',
    'https://',
    `${'a'.repeat(64)}.com`,
    'mailto:x',
  ];
  for (const raw of bad) {
    t.throws(
      () => parseDomainFilter(raw),
      {
        code: 'invalid_request',
        message: `domain must be a host name such as example.com or an address such as https://example.com/page; got ${JSON.stringify(raw.slice(0, 60))}`,
      },
      raw,
    );
  }
  // A public suffix alone would match every audit under it (domain=com: every .com site).
  const suffixes: [string, string][] = [
    ['com', 'com'],
    ['COM.', 'com'],
    ['https://co.uk/', 'co.uk'],
    ['www.com', 'com'],
    ['localhost', 'localhost'],
    ['www', 'www'],
  ];
  for (const [raw, host] of suffixes) {
    t.throws(
      () => parseDomainFilter(raw),
      {
        code: 'invalid_request',
        message: new RegExp(`^domain "${host.replace('.', '\\.')}" is a top-level domain or public suffix`),
      },
      raw,
    );
  }
});

t.test('filters: enumerations, empty values, repeats', async (t) => {
  t.same(parseListFilters({}), { source: 'api' }, 'default source api, no filter');
  t.same(
    parseListFilters({ project: '', source: '', domain: '', bulkId: '', createdAfter: '', createdBefore: '' }),
    { source: 'api' },
    'empty values are ignored (project= does not mean unassigned)',
  );
  t.throws(
    () => parseListFilters({ status: '' }),
    { code: 'invalid_request', message: 'status must be one of queued, running, completed, error; got ""' },
    'status= is not one of the values: 400 (spec 4.9)',
  );
  t.same(parseListFilters({ project: '__none__' }), { source: 'api', project: null }, '__none__: unassigned');
  t.same(parseListFilters({ project: 'Acme' }), { source: 'api', project: 'Acme' });
  for (const status of ['queued', 'running', 'completed', 'error'])
    t.equal(parseListFilters({ status }).status, status);
  for (const source of ['api', 'panel', 'all']) t.equal(parseListFilters({ source }).source, source);
  t.throws(() => parseListFilters({ status: 'done' }), {
    code: 'invalid_request',
    message: 'status must be one of queued, running, completed, error; got "done"',
  });
  t.throws(
    () => parseListFilters({ status: 'Queued' }),
    { message: 'status must be one of queued, running, completed, error; got "Queued"' },
    'case-sensitive',
  );
  t.throws(() => parseListFilters({ source: 'app' }), { message: 'source must be one of api, panel, all; got "app"' });
  t.throws(() => parseListFilters({ project: ['a', 'b'] }), { message: 'project may be given only once' });
});
