/**
 * Every rule of POST /audits (spec 4.2, 7) with the message it gives: one table, run against the
 * parser (unit) and through HTTP (integration). `field` is the error's added `field` (null: none).
 */
export const URL = 'https://example.com/guide';
export const CONTENT = 'How to descale a kettle with citric acid, step by step, in ten minutes.';
const FIELDS = 'url, content, title, keyword, language, project, share, shareExpiresInDays, webhookUrl';

export interface RejectCase {
  name: string;
  body: unknown;
  field: string | null;
  message: string;
}

export const rejected: RejectCase[] = [
  // the body itself
  { name: 'a JSON array', body: [], field: null, message: 'The body must be a JSON object with url or content' },
  {
    name: 'a JSON string',
    body: 'https://example.com/',
    field: null,
    message: 'The body must be a JSON object with url or content',
  },
  {
    name: 'an unknown field',
    body: { url: URL, keywrod: 'kettle' },
    field: 'keywrod',
    message: `Unknown field "keywrod" (the fields are ${FIELDS})`,
  },
  // url xor content
  { name: 'neither url nor content', body: {}, field: 'url', message: 'Either url or content is required' },
  {
    name: 'only other fields',
    body: { keyword: 'descale kettle' },
    field: 'url',
    message: 'Either url or content is required',
  },
  {
    name: 'url and content both null',
    body: { url: null, content: null },
    field: 'url',
    message: 'Either url or content is required',
  },
  {
    name: 'both url and content',
    body: { url: URL, content: CONTENT },
    field: 'url',
    message: 'Send either url or content, not both',
  },
  // url
  { name: 'url not a string', body: { url: 42 }, field: 'url', message: 'url must be a string; got 42' },
  { name: 'url empty', body: { url: '' }, field: 'url', message: 'url is not allowed: the URL is empty' },
  {
    name: 'url not absolute',
    body: { url: 'example.com/page' },
    field: 'url',
    message: 'url is not allowed: "example.com/page" is not a valid absolute URL',
  },
  {
    name: 'url scheme',
    body: { url: 'ftp://example.com/' },
    field: 'url',
    message: 'url is not allowed: the URL scheme must be http or https, got "ftp"',
  },
  {
    name: 'url with credentials',
    body: { url: 'https://me:pw@example.com/' },
    field: 'url',
    message: 'url is not allowed: URLs with a user name or password are not allowed',
  },
  {
    name: 'url private address',
    body: { url: 'http://10.0.0.1/' },
    field: 'url',
    message: 'url is not allowed: the address 10.0.0.1 is not public (private)',
  },
  {
    name: 'url loopback in hex',
    body: { url: 'http://0x7f.1/' },
    field: 'url',
    message: 'url is not allowed: the address 127.0.0.1 is not public (loopback)',
  },
  {
    name: 'url localhost',
    body: { url: 'http://localhost:8080/' },
    field: 'url',
    message: 'url is not allowed: the host localhost is local',
  },
  {
    name: 'url bad port',
    body: { url: 'http://example.com:22/' },
    field: 'url',
    message: 'url is not allowed: port 22 is not allowed',
  },
  // content
  {
    name: 'content not a string',
    body: { content: 42 },
    field: 'content',
    message: 'content must be a string; got 42',
  },
  {
    name: 'content 49 characters',
    body: { content: 'x'.repeat(49) },
    field: 'content',
    message: 'content must be 50 to 200,000 characters long; it has 49',
  },
  {
    name: 'content 200,001 characters',
    body: { content: 'x'.repeat(200_001) },
    field: 'content',
    message: 'content must be 50 to 200,000 characters long; it has 200,001',
  },
  {
    name: 'content of 40 emoji (80 UTF-16 units)',
    body: { content: '😀'.repeat(40) },
    field: 'content',
    message: 'content must be 50 to 200,000 characters long; it has 40',
  },
  // title
  {
    name: 'title not a string',
    body: { content: CONTENT, title: 7 },
    field: 'title',
    message: 'title must be a string; got 7',
  },
  {
    name: 'title 301 characters',
    body: { content: CONTENT, title: 't'.repeat(301) },
    field: 'title',
    message: 'title must be at most 300 characters long; it has 301',
  },
  {
    name: 'title blank',
    body: { content: CONTENT, title: '  ' },
    field: 'title',
    message: 'title must not be empty; omit it to use the keyword as the title',
  },
  {
    name: 'title with url',
    body: { url: URL, title: 'My title' },
    field: 'title',
    message: 'title is used only with content; a page audited from url keeps its own title',
  },
  // keyword
  {
    name: 'keyword not a string',
    body: { url: URL, keyword: ['a', 'b'] },
    field: 'keyword',
    message: 'keyword must be a string; got an array',
  },
  {
    name: 'keyword 201 characters',
    body: { url: URL, keyword: 'k'.repeat(201) },
    field: 'keyword',
    message: 'keyword must be at most 200 characters long; it has 201',
  },
  {
    name: 'keyword empty',
    body: { url: URL, keyword: '' },
    field: 'keyword',
    message: 'keyword must not be empty; omit it to have the keyword detected',
  },
  // language
  {
    name: 'language upper case',
    body: { url: URL, language: 'EN' },
    field: 'language',
    message: 'language must be an ISO 639-1 code (two lower-case letters, e.g. en, pl, de); got "EN"',
  },
  {
    name: 'language a name',
    body: { url: URL, language: 'english' },
    field: 'language',
    message: 'language must be an ISO 639-1 code (two lower-case letters, e.g. en, pl, de); got "english"',
  },
  {
    name: 'language not in ISO 639-1',
    body: { url: URL, language: 'xx' },
    field: 'language',
    message: 'language must be an ISO 639-1 code (two lower-case letters, e.g. en, pl, de); got "xx"',
  },
  {
    name: 'language withdrawn code (iw)',
    body: { url: URL, language: 'iw' },
    field: 'language',
    message: 'language must be an ISO 639-1 code (two lower-case letters, e.g. en, pl, de); got "iw"',
  },
  {
    name: 'language a locale',
    body: { url: URL, language: 'en-US' },
    field: 'language',
    message: 'language must be an ISO 639-1 code (two lower-case letters, e.g. en, pl, de); got "en-US"',
  },
  {
    name: 'language ISO 639-2',
    body: { url: URL, language: 'eng' },
    field: 'language',
    message: 'language must be an ISO 639-1 code (two lower-case letters, e.g. en, pl, de); got "eng"',
  },
  {
    name: 'language not a string',
    body: { url: URL, language: 12 },
    field: 'language',
    message: 'language must be a string; got 12',
  },
  // project
  {
    name: 'project a number',
    body: { url: URL, project: 42 },
    field: 'project',
    message: 'project must be a string; got 42',
  },
  {
    name: 'project an object',
    body: { url: URL, project: { name: 'x' } },
    field: 'project',
    message: 'project must be a string; got an object',
  },
  {
    name: 'project 101 characters',
    body: { url: URL, project: 'p'.repeat(101) },
    field: 'project',
    message: 'project must be at most 100 characters long; it has 101',
  },
  {
    name: 'project empty',
    body: { url: URL, project: '' },
    field: 'project',
    message: 'project must not be empty; omit it to leave the audit unassigned',
  },
  {
    name: 'project blank',
    body: { url: URL, project: '   ' },
    field: 'project',
    message: 'project must not be empty; omit it to leave the audit unassigned',
  },
  {
    name: 'project __none__',
    body: { url: URL, project: '__none__' },
    field: 'project',
    message: 'project "__none__" is reserved: the job list\'s project filter uses it for unassigned audits',
  },
  // share
  {
    name: 'share the string "true"',
    body: { url: URL, share: 'true' },
    field: 'share',
    message: 'share must be a JSON boolean (true or false); got the string "true"',
  },
  {
    name: 'share 1',
    body: { url: URL, share: 1 },
    field: 'share',
    message: 'share must be a JSON boolean (true or false); got 1',
  },
  // shareExpiresInDays
  {
    name: 'shareExpiresInDays 0',
    body: { url: URL, share: true, shareExpiresInDays: 0 },
    field: 'shareExpiresInDays',
    message: 'shareExpiresInDays must be a whole number from 1 to 365; got 0',
  },
  {
    name: 'shareExpiresInDays 366',
    body: { url: URL, share: true, shareExpiresInDays: 366 },
    field: 'shareExpiresInDays',
    message: 'shareExpiresInDays must be a whole number from 1 to 365; got 366',
  },
  {
    name: 'shareExpiresInDays 1.5',
    body: { url: URL, share: true, shareExpiresInDays: 1.5 },
    field: 'shareExpiresInDays',
    message: 'shareExpiresInDays must be a whole number from 1 to 365; got 1.5',
  },
  {
    name: 'shareExpiresInDays "30"',
    body: { url: URL, share: true, shareExpiresInDays: '30' },
    field: 'shareExpiresInDays',
    message: 'shareExpiresInDays must be a whole number from 1 to 365; got the string "30"',
  },
  {
    name: 'shareExpiresInDays without share',
    body: { url: URL, shareExpiresInDays: 30 },
    field: 'shareExpiresInDays',
    message: 'shareExpiresInDays requires share: true',
  },
  {
    name: 'shareExpiresInDays with share false',
    body: { url: URL, share: false, shareExpiresInDays: 30 },
    field: 'shareExpiresInDays',
    message: 'shareExpiresInDays requires share: true',
  },
  // webhookUrl
  {
    name: 'webhookUrl not a string',
    body: { url: URL, webhookUrl: 5 },
    field: 'webhookUrl',
    message: 'webhookUrl must be a string; got 5',
  },
  {
    name: 'webhookUrl http',
    body: { url: URL, webhookUrl: 'http://hooks.example/x' },
    field: 'webhookUrl',
    message: 'webhookUrl is not allowed: the URL scheme must be https, got "http"',
  },
  {
    name: 'webhookUrl private',
    body: { url: URL, webhookUrl: 'https://192.168.1.20/hook' },
    field: 'webhookUrl',
    message: 'webhookUrl is not allowed: the address 192.168.1.20 is not public (private)',
  },
  {
    name: 'webhookUrl not a URL',
    body: { url: URL, webhookUrl: 'hooks' },
    field: 'webhookUrl',
    message: 'webhookUrl is not allowed: "hooks" is not a valid absolute URL',
  },
  // the first broken rule is the one reported
  {
    name: 'several problems: the first in field order',
    body: { url: URL, keyword: '', language: 'EN', share: 'yes' },
    field: 'keyword',
    message: 'keyword must not be empty; omit it to have the keyword detected',
  },
];

export interface AcceptCase {
  name: string;
  body: Record<string, unknown>;
  /** Fields of the parsed request to compare. */
  parsed: Record<string, unknown>;
}

export const accepted: AcceptCase[] = [
  {
    name: 'a url only',
    body: { url: URL },
    parsed: { url: URL, content: null, keyword: null, share: false, project: null },
  },
  { name: 'url normalised', body: { url: ' HTTPS://Example.COM/a b' }, parsed: { url: 'https://example.com/a%20b' } },
  {
    name: 'content of exactly 50 characters',
    body: { content: 'x'.repeat(50) },
    parsed: { content: 'x'.repeat(50), url: null },
  },
  { name: 'content of exactly 200,000 characters', body: { content: 'x'.repeat(200_000) }, parsed: { url: null } },
  { name: 'content of 60 emoji (120 UTF-16 units)', body: { content: '😀'.repeat(60) }, parsed: { url: null } },
  {
    name: 'content with a title of 300 characters',
    body: { content: CONTENT, title: 't'.repeat(300) },
    parsed: { title: 't'.repeat(300) },
  },
  { name: 'a one-word keyword, trimmed', body: { url: URL, keyword: ' kettle ' }, parsed: { keyword: 'kettle' } },
  {
    name: 'a keyword of 200 characters',
    body: { url: URL, keyword: 'k'.repeat(200) },
    parsed: { keyword: 'k'.repeat(200) },
  },
  { name: 'language pl', body: { url: URL, language: 'pl' }, parsed: { language: 'pl' } },
  {
    name: 'a project of 100 characters, kept exactly',
    body: { url: URL, project: ' Acme ' + 'p'.repeat(94) },
    parsed: { project: ' Acme ' + 'p'.repeat(94) },
  },
  {
    name: 'share true with 1 day',
    body: { url: URL, share: true, shareExpiresInDays: 1 },
    parsed: { share: true, shareExpiresInDays: 1 },
  },
  {
    name: 'share true with 365 days',
    body: { url: URL, share: true, shareExpiresInDays: 365 },
    parsed: { share: true, shareExpiresInDays: 365 },
  },
  {
    name: 'share true without expiry',
    body: { url: URL, share: true },
    parsed: { share: true, shareExpiresInDays: null },
  },
  {
    name: 'an https webhook',
    body: { url: URL, webhookUrl: 'https://hooks.example.com/audit' },
    parsed: { webhookUrl: 'https://hooks.example.com/audit' },
  },
  {
    name: 'null for every optional field counts as omitted',
    body: {
      url: URL,
      content: null,
      title: null,
      keyword: null,
      language: null,
      project: null,
      share: null,
      shareExpiresInDays: null,
      webhookUrl: null,
    },
    parsed: {
      url: URL,
      content: null,
      title: null,
      keyword: null,
      language: null,
      project: null,
      share: false,
      shareExpiresInDays: null,
      webhookUrl: null,
    },
  },
];
