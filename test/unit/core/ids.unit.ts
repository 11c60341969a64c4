import t from 'tap';
import { randomHex, randomSecretHex } from '../../../core/ids.ts';

t.test('randomHex: lower-case hex of the asked length, none repeated across refills of its pool', async (t) => {
  // 2,000 ids of 12 bytes use the 4 KiB pool about six times over.
  const ids = Array.from({ length: 2000 }, () => randomHex());
  t.ok(
    ids.every((id) => /^[0-9a-f]{24}$/.test(id)),
    '24 hex characters each',
  );
  t.equal(new Set(ids).size, ids.length, 'all distinct');
  t.match(randomHex(5000), /^[0-9a-f]{10000}$/, 'longer than the pool: drawn alone');
  t.match(randomSecretHex(), /^[0-9a-f]{64}$/, 'a secret: 32 bytes of its own');
});
