import t from 'tap';
import { TapFailures } from '../../tapFailures.ts';

const TAP = `TAP version 14
# Subtest: test/a.unit.ts
    # Subtest: first
        ok 1 - fine
        not ok 2 - should be equal
          ---
          found: 1
          wanted: 2
          ...
        1..2
    not ok 1 - first # time=3ms
    # Subtest: second
        ok 1 - x
    ok 2 - second
not ok 1 - test/a.unit.ts # time=10ms
# Subtest: test/b.int.ts
    not ok 1 - timeout!
ok 2 - test/b.int.ts
not ok 3 - test/c.int.ts # time=1ms
  ---
  exitCode: 1
  ...
ok 4 - test/d.int.ts # time=1ms
`;

t.test('the failed tests of a TAP stream, innermost, with their diagnostics, whatever the chunking', async (t) => {
  for (const size of [1, 7, 64, TAP.length]) {
    const f = new TapFailures();
    for (let i = 0; i < TAP.length; i += size) f.write(TAP.slice(i, i + size));
    t.same(
      f.report(),
      [
        'not ok: test/a.unit.ts > first > should be equal',
        '    found: 1',
        '    wanted: 2',
        'not ok: test/b.int.ts > timeout!',
        'not ok: test/c.int.ts',
        '    exitCode: 1',
      ],
      `chunks of ${size}`,
    );
  }
  t.same(new TapFailures().report(), [], 'nothing failed, nothing said');
});
