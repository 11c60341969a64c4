import t from 'tap';
import { auditContent } from '../../../services/engine/audit.ts';

/**
 * A lone subject noun in the title (issue 23, stuffing): kinds of it ("session tokens, refresh
 * tokens") are not repeats of it; the noun said bare three times is. Made-up pages.
 */
const body = [
  'By Ann Lee, security engineer.',
  '',
  'A token is a short string that proves who you are to a server for a limited time. It is issued',
  'after a login and sent with each request, so the password does not travel again.',
  '',
  '## How long it lives',
  '',
  'Most access tokens expire after 15 to 60 minutes; a refresh token renews them without a new login.',
].join('\n');

const titleFinding = (title: string, keyword: string) =>
  auditContent({ content: `# ${title}\n\n${body}`, format: 'text', url: null, keyword, language: 'en' })
    .dimensions.find((d) => d.id === 'density')!
    .problems.some((p) => /title/i.test(p.title));

t.test('kinds of the subject named in the title are not stuffing', async (t) => {
  t.notOk(titleFinding('What Is a Token? Session Tokens and Refresh Tokens Compared', 'what is a token'));
});

t.test('the subject said bare three times in the title is', async (t) => {
  t.ok(titleFinding('Token: What a Token Is and Why a Token Matters', 'what is a token'));
  t.ok(titleFinding('Token – Best Token Guide – Token Tips', 'what is a token'), 'an intent word names no kind');
});

t.test('a sentence that says a lone subject noun twice is not asked to say it once; three times is', async (t) => {
  // The three sentences that repeat it most are offered for removal; the rewrite task takes the next.
  const asks = (n: number) => {
    const rep = (extra: string) => Array.from({ length: n }, () => 'Inflation').join(' und ') + extra;
    const page = [
      '# Inflation',
      '',
      `${rep(' ist da.')} ${rep(' steigt.')} ${rep(' sinkt.')}`,
      `Im Euroraum nannten die Statistiker ${rep(' im Jahresbericht der Zentralbank für Energiepreise')}.`,
    ].join('\n');
    return auditContent({ content: page, format: 'text', url: null, keyword: 'was ist inflation', language: 'de' })
      .dimensions.find((d) => d.id === 'density')!
      .problems.some((p) => p.title === 'Das Keyword in diesem Satz nur einmal nennen');
  };
  t.notOk(asks(2), 'twice: natural for a lone subject noun');
  t.ok(asks(3), 'three times');
});
