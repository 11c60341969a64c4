import t from 'tap';
import { parseBulkSubmission } from '../../../services/bulk/parseBulk.ts';
import { samePageKey } from '../../../infra/http/pageIdentity.ts';

// Literal public addresses only: no DNS is asked (an IP literal is checked as it stands).
const policy = { allowPrivateAddresses: false, resolver: async () => [] };

t.test('spec 4.4 rule 2: one page written differently is one entry, the first kept with its keyword', async (t) => {
  const parsed = await parseBulkSubmission(
    {
      urls: [
        { url: 'https://93.184.216.34/dd', keyword: 'first keyword' },
        { url: 'https://93.184.216.34/dd#frag', keyword: 'second keyword' },
        'https://93.184.216.34/dd?',
        'https://93.184.216.34/%64d',
        'https://93.184.216.34:443/%64%64#x',
        'HTTPS://93.184.216.34/d%64?',
        'https://93.184.216.34/dd?q=1',
        'https://93.184.216.34/dd?q=%31',
        'https://93.184.216.34/d%2Fd',
        'https://93.184.216.34/d%2fd',
        'http://93.184.216.34/dd',
      ],
    },
    policy,
  );
  t.same(
    parsed.entries,
    [
      { url: 'https://93.184.216.34/dd', keyword: 'first keyword' },
      { url: 'https://93.184.216.34/dd?q=1', keyword: null },
      { url: 'https://93.184.216.34/d%2Fd', keyword: null },
      { url: 'http://93.184.216.34/dd', keyword: null },
    ],
    'fragment, empty query, escaped unreserved characters, default port, case of the scheme and of escapes',
  );
});

t.test('samePageKey: the normalisation itself', async (t) => {
  const key = (s: string) => samePageKey(new URL(s));
  t.equal(key('https://Example.COM:443/a/./b/../c#top'), 'https://example.com/a/c');
  t.equal(key('http://example.com:80/?'), 'http://example.com/');
  t.equal(key('http://example.com/%7Euser/%41%2d%5f%2E'), 'http://example.com/~user/A-_.');
  t.equal(key('http://example.com/a%2fb%3F?x=%2a'), 'http://example.com/a%2Fb%3F?x=%2A', 'reserved stay escaped');
  t.equal(key('http://example.com/caf%C3%A9'), 'http://example.com/caf%C3%A9', 'non-ASCII stays escaped');
  t.not(key('http://example.com/a?x=1'), key('http://example.com/a?x=2'));
  t.not(key('http://example.com/A'), key('http://example.com/a'), 'paths are case-sensitive');
});
