import t from 'tap';
import { decodeHtml } from '../../../infra/http/charset.ts';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

t.test('encoding: BOM, then header, then meta, then UTF-8', async (t) => {
  const polish = [0x67, 0xea, 0x9c, 0x6c, 0xb9]; // "gęślą" in windows-1250
  t.same(decodeHtml(bytes('<p>', polish), 'text/html; charset=windows-1250'), {
    text: '<p>gęślą',
    charset: 'windows-1250',
  });
  t.same(
    decodeHtml(bytes('<p>', polish), 'text/html; charset="WINDOWS-1250"'),
    { text: '<p>gęślą', charset: 'windows-1250' },
    'quoted, upper case',
  );
  t.equal(
    decodeHtml(
      bytes('<meta http-equiv="Content-Type" content="text/html; charset=windows-1250"><p>', polish),
      'text/html',
    ).text.endsWith('gęślą'),
    true,
    'http-equiv',
  );
  t.equal(
    decodeHtml(bytes([0xef, 0xbb, 0xbf], 'x'), 'text/html; charset=iso-8859-2').charset,
    'utf-8',
    'a BOM wins over the header',
  );
  t.equal(decodeHtml(Buffer.from('<p>gęślą</p>'), 'text/html').text, '<p>gęślą</p>', 'UTF-8 by default');
  t.equal(decodeHtml(Buffer.from('<p>x</p>'), 'text/html; charset=klingon').charset, 'utf-8', 'unknown label: UTF-8');
  t.equal(
    decodeHtml(Buffer.from('<meta charset="utf-16"><p>x</p>'), undefined).charset,
    'utf-8',
    'a meta tag cannot declare UTF-16',
  );
});
