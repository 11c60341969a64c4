import t from 'tap';
import { Ajv } from 'ajv';
import { createRequire } from 'node:module';
import { parseAuditSubmission } from '../../../services/pipeline/parseSubmission.ts';
import { SubmitAuditBody } from '../../../services/api/schemas/audits.ts';
import { accepted, rejected, URL } from '../api/audits/submissionCases.ts';

const strict = { allowPrivateAddresses: false };
const ajv = new Ajv({ strict: false, coerceTypes: false });
createRequire(import.meta.url)('ajv-formats')(ajv);
const schemaAccepts = ajv.compile(SubmitAuditBody);

t.test('every rule of POST /audits refuses with its own message (spec 4.2, 7)', async (t) => {
  for (const c of rejected) {
    t.throws(
      () => parseAuditSubmission(c.body, strict),
      { code: 'invalid_request', status: 400, message: c.message },
      c.name,
    );
    try {
      parseAuditSubmission(c.body, strict);
    } catch (e) {
      t.same((e as { extra: Record<string, unknown> }).extra.field, c.field ?? undefined, `${c.name}: field`);
    }
  }
});

t.test('good bodies are parsed, and the documented schema accepts each of them too', async (t) => {
  for (const c of accepted) {
    const parsed = parseAuditSubmission(c.body, strict);
    t.match(parsed, c.parsed, c.name);
    t.ok(schemaAccepts(c.body), `${c.name}: the OpenAPI schema agrees (${JSON.stringify(schemaAccepts.errors?.[0])})`);
  }
});

t.test('the schema refuses what it can express of the refused bodies', async (t) => {
  // Cross-field rules (url xor content, title only with content, shareExpiresInDays only with share,
  // "__none__", blank strings, URL policy, the ISO list) are the parser's alone.
  const typeOrLimit = [
    'url not a string',
    'content 49 characters',
    'content 200,001 characters',
    'title 301 characters',
    'keyword 201 characters',
    'project a number',
    'project 101 characters',
    'share the string "true"',
    'shareExpiresInDays 0',
    'shareExpiresInDays 1.5',
    'an unknown field',
    'language upper case',
  ];
  for (const name of typeOrLimit) {
    const c = rejected.find((x) => x.name === name)!;
    t.notOk(schemaAccepts(c.body), name);
  }
});

t.test('private addresses pass with ALLOW_PRIVATE_ADDRESSES, and only the address rules are lifted', async (t) => {
  const open = { allowPrivateAddresses: true };
  t.equal(parseAuditSubmission({ url: 'http://127.0.0.1:3000/page' }, open).url, 'http://127.0.0.1:3000/page');
  t.equal(
    parseAuditSubmission({ url: URL, webhookUrl: 'https://10.0.0.1/hook' }, open).webhookUrl,
    'https://10.0.0.1/hook',
  );
  t.throws(() => parseAuditSubmission({ url: 'ftp://127.0.0.1/' }, open), { message: /scheme/ });
  t.throws(() => parseAuditSubmission({ url: URL, webhookUrl: 'http://10.0.0.1/hook' }, open), {
    message: /must be https/,
  });
});

t.test('title defaults to nothing here: the submission command substitutes the keyword (spec 4.2)', async (t) => {
  const parsed = parseAuditSubmission({ content: 'x'.repeat(60), keyword: 'descale kettle' }, strict);
  t.equal(parsed.title, null);
});
