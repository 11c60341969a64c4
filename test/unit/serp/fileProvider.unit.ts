import t from 'tap';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFileSerpProvider } from '../../../infra/serp/fileProvider.ts';
import { createSerpProvider } from '../../../infra/serp/index.ts';

const entry = (over: Record<string, unknown> = {}) => ({
  searchVolume: 5400,
  serpOrganicCount: 2,
  organic: [
    { url: 'https://a.example/descale', title: 'Descale A' },
    { url: 'https://b.example/descale', title: 'Descale B', file: 'comp-b.md' },
  ],
  paa: ['How often?'],
  related: ['descaler'],
  ...over,
});
const write = (t: { testdir(): string }, data: unknown) => {
  const path = join(t.testdir(), 'serp.json');
  writeFileSync(path, typeof data === 'string' ? data : JSON.stringify(data));
  return path;
};

t.test('keywords match case-insensitively, whitespace collapsed', async (t) => {
  const p = createFileSerpProvider(write(t, { 'Descale Espresso Machine': entry() }));
  t.equal(p.name, 'file');
  const data = await p.lookup('  descale   ESPRESSO machine ', 'en');
  t.same(
    data,
    {
      searchVolume: 5400,
      serpOrganicCount: 2,
      organic: [
        { url: 'https://a.example/descale', title: 'Descale A' },
        { url: 'https://b.example/descale', title: 'Descale B' },
      ],
      paa: ['How often?'],
      related: ['descaler'],
    },
    'extra fields (file) are accepted and dropped',
  );
  t.equal(await p.lookup('something else', 'en'), null, 'no entry: null, so the benchmark is null');
  data!.organic.pop();
  t.equal((await p.lookup('descale espresso machine', 'en'))!.organic.length, 2, 'callers get copies');
  t.same(
    [...(await p.searchVolumes(['DESCALE espresso machine', 'other'], 'en'))],
    [
      ['DESCALE espresso machine', 5400],
      ['other', null],
    ],
  );
});

t.test('the engine fixture SERP file loads', async (t) => {
  const p = createSerpProvider({
    provider: 'file',
    file: join(import.meta.dirname, '../../fixtures/engine/serp/serp-descale.json'),
  });
  t.equal((await p.lookup('Descale espresso machine', 'en'))?.organic.length, 4);
});

t.test('a bad file is refused with every problem named', async (t) => {
  t.throws(() => createFileSerpProvider(join(t.testdir(), 'missing.json')), {
    code: 'config_error',
    message: /SERP file .*missing\.json cannot be read: ENOENT/,
  });
  t.throws(() => createFileSerpProvider(write(t, '{"a": ')), {
    code: 'config_error',
    message: /cannot be read: .*JSON/,
  });
  t.throws(() => createFileSerpProvider(write(t, [entry()])), { message: /must hold a JSON object keyed by keyword/ });
  const bad = write(t, { kw: entry({ searchVolume: 12.5, organic: [{ url: 'https://x.example/' }], related: 'x' }) });
  t.throws(() => createFileSerpProvider(bad), {
    code: 'config_error',
    message:
      /is invalid:\n- \/kw\/searchVolume: Expected integer\n- \/kw\/organic\/0\/title: Expected required property\n- \/kw\/related: Expected array/,
  });
  t.throws(() => createFileSerpProvider(write(t, { kw: { searchVolume: 1 } })), {
    message: /\/kw\/serpOrganicCount: Expected required property/,
  });
  t.throws(() => createFileSerpProvider(write(t, { kw: entry({ serpOrganicCount: -1 }) })), {
    message: /\/kw\/serpOrganicCount: Expected integer to be greater or equal to 0/,
  });
  t.throws(() => createFileSerpProvider(write(t, { Foo: entry(), ' foo ': entry() })), {
    message: /" foo " and "Foo" are the same keyword/,
  });
});

t.test('none: no data, no volumes', async (t) => {
  const p = createSerpProvider({ provider: 'none' });
  t.equal(p.name, 'none');
  t.equal(await p.lookup('anything', 'en'), null);
  t.same(
    [...(await p.searchVolumes(['a', 'b'], 'en'))],
    [
      ['a', null],
      ['b', null],
    ],
  );
});
