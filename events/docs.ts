import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TSchema } from '@sinclair/typebox';
import { Kind } from '@sinclair/typebox';
import { typeboxToAvro } from './avro.ts';
import { catalogue } from './catalogue.ts';
import type { StreamName, AnyEventDefinition } from './define.ts';

const eventsDir = dirname(fileURLToPath(import.meta.url));
const repoDir = dirname(eventsDir);
export const EVENTS_DOC = join(repoDir, 'docs', 'events.md');

/** The declarations' sources, so the doc quotes their comments: one place says what an event means. */
const sources = (dir: string): { path: string; text: string }[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory()
      ? sources(join(dir, d.name))
      : d.name.endsWith('.ts')
        ? [{ path: join(dir, d.name), text: readFileSync(join(dir, d.name), 'utf8') }]
        : [],
  );

/** A JSDoc comment as Markdown: lines joined, its bullet lists kept. */
const clean = (comment: string): string =>
  comment
    .split('\n')
    .map((l) =>
      l
        .replace(/^\s*\/?\*+\/?\s?/, '')
        .replace(/\*\/\s*$/, '')
        .trim(),
    )
    .filter(Boolean)
    .reduce((text, l) => (l.startsWith('- ') ? `${text}\n${l}` : text ? `${text} ${l}` : l), '')
    .replace(/:\n- /, ':\n\n- ');

interface Declaration {
  path: string;
  meaning: string;
  fieldMeanings: Map<string, string>;
}

function declarationOf(files: { path: string; text: string }[], type: string): Declaration | undefined {
  for (const f of files) {
    const at = f.text.indexOf(`export const ${type} = defineEvent(`);
    if (at < 0) continue;
    const before = f.text.slice(0, at).trimEnd();
    const meaning = before.endsWith('*/') ? clean(before.slice(before.lastIndexOf('/**'))) : '';
    // The call runs to the first line that closes it at the start of a line (or its own line).
    const end = f.text.indexOf('\n);', at);
    // The payload may be a constant of its own (an event with several versions of one shape).
    const own = f.text.indexOf(`const ${type}Payload = `);
    const call = f.text.slice(own >= 0 ? own : at, end < 0 ? undefined : end);
    const fieldMeanings = new Map<string, string>();
    for (const m of call.matchAll(/\/\*\*([\s\S]*?)\*\/\s*(\w+)\s*:/g)) fieldMeanings.set(m[2]!, clean(m[1]!));
    return { path: relative(repoDir, f.path), meaning, fieldMeanings };
  }
  return undefined;
}

/** The comment at the head of a stream's events file: what the stream is. */
function streamMeaning(files: { path: string; text: string }[], stream: StreamName): string {
  const f =
    files.find((x) => x.path === join(eventsDir, stream, 'events.ts')) ??
    files.find((x) => x.path === join(eventsDir, stream, 'index.ts'));
  const m = f && /\/\*\*([\s\S]*?)\*\//.exec(f.text);
  return m ? clean(m[1]!) : '';
}

const avroTypeText = (s: TSchema, name: string): string => {
  const a = typeboxToAvro(s, name);
  const text = (x: unknown): string =>
    typeof x === 'string'
      ? x
      : Array.isArray(x)
        ? x.map(text).join(' \\| ')
        : (x as { type: string; items?: unknown; values?: unknown }).type === 'array'
          ? `array<${text((x as { items: unknown }).items)}>`
          : (x as { type: string }).type === 'map'
            ? `map<${text((x as { values: unknown }).values)}>`
            : (x as { type: string }).type;
  return text(a);
};

const fieldRows = (d: AnyEventDefinition, decl: Declaration | undefined): string[] =>
  Object.entries(d.schema.properties as Record<string, TSchema>).map(([name, s]) => {
    const nullable = s[Kind] === 'Union' && (s.anyOf as TSchema[]).some((x) => x[Kind] === 'Null');
    const literals =
      s[Kind] === 'Union'
        ? (s.anyOf as TSchema[]).filter((x) => x[Kind] === 'Literal').map((x) => `\`${String(x.const)}\``)
        : [];
    const type = avroTypeText(s, `${d.type}_${name}`) + (nullable ? ' (null default)' : '');
    const meaning = [decl?.fieldMeanings.get(name), literals.length ? `One of ${literals.join(', ')}.` : '']
      .filter(Boolean)
      .join(' ');
    return `| \`${name}\` | ${type} | ${meaning.replace(/\|/g, '\\|')} |`;
  });

const STREAM_IDS: Partial<Record<StreamName, string>> = {
  account: 'account-<accountId>',
  audit: 'audit-<auditId>',
  webhook: 'webhook-<jobId>',
};

/** The doc's fixed part: the topic, the envelope, ordering, the hash chain, compatibility. */
const PREAMBLE: readonly string[] = [
  '# The event catalogue',
  '',
  '<!-- Generated from events/ by `npm run events:docs`; do not edit by hand (a test checks it is current). -->',
  '',
  'Every event the service writes, as declared in `events/<stream>/`. The same declarations give the',
  'TypeScript types, the payload validation at append, the Avro schemas below, and which events a',
  "stream's projections, the ledger and its hash chain take.",
  '',
  '## Topic',
  '',
  '- **Name:** `<KAFKA_TOPIC_PREFIX>.events` (default `audit.events`). One topic for every stream.',
  "- **Key:** the account id. Kafka's default partitioner (murmur2 of the key) puts all of one account's events, of every",
  '  stream, in one partition, in commit order. Partitions: `PARTITIONS` (default 8) at creation.',
  '- **Retention:** kept forever (`retention.ms=-1`, `retention.bytes=-1`, `cleanup.policy=delete`, never compacted): a',
  '  consumer may start from the beginning at any time.',
  "- **Value:** the Avro binary encoding of the envelope (below) with the payload of the event's version; no",
  "  framing (no magic byte, no schema id). With `SCHEMA_REGISTRY_URL` set: Confluent's wire format instead, byte",
  "  `0x00`, the writer schema's registry id (4 bytes, big-endian), then the same Avro body; each type's schema is",
  '  registered under the subject `<topic>-<record full name>` (TopicRecordNameStrategy), e.g.',
  '  `audit.events-audit.events.account.AccountOpened`. An unframed value never starts with `0x00`.',
  '- **Headers:** `event-type` (the type name), `event-version` (the payload schema version the value is written',
  '  with), `event-id` (the envelope id). Pick the writer schema with the first two, then decode.',
  '',
  '## Envelope',
  '',
  '| Field | Avro type | Meaning |',
  '| --- | --- | --- |',
  '| `id` | string | Unique id of the event; the same event published twice keeps it. |',
  '| `type` | string | The event type (as the `event-type` header). |',
  '| `version` | int | The payload schema version (as the `event-version` header). |',
  '| `accountId` | string | The account the event belongs to; the Kafka key. |',
  '| `streamId` | string | The stream: `<stream>-<id>`. |',
  '| `streamVersion` | long | 1-based position of the event in its stream, without gaps. |',
  '| `position` | string | `"<txid>:<seq>"`: commit order in the whole log; compare as two integers. |',
  '| `occurredAt` | string | ISO 8601 UTC time the event was recorded. |',
  '| `causationId` | null \\| string | The event or request that caused it, when known. |',
  '| `correlationId` | null \\| string | Shared by the events of one request or job. |',
  "| `payload` | record | The event's own fields, below. |",
  '| `prevHash` | null \\| string | Only on credit movements (from the version named below): the hash chain link, SHA-256 (hex) of the previous credit movement of the stream; null for the first. See "Hash chain". |',
  '',
  '## Ordering and duplicates',
  '',
  '- Within an account, events arrive in commit order (by `position`), and within a stream by `streamVersion`.',
  '  Across accounts there is no order.',
  '- Delivery is at least once: the relay may publish a batch twice after a crash. Drop an event whose',
  '  `position` is not greater than the last one you processed on that partition, or de-duplicate by `id`.',
  "- A stream's `streamVersion` has no gaps: a gap means an event is missing.",
  '',
  '## Hash chain',
  '',
  '- Every event type marked "moves credits" below carries `prevHash`. The hash of an event is the SHA-256 (hex) of the',
  '  JSON array `[prevHash, id, type, version, accountId, streamId, streamVersion, occurredAt, payload]`, written with',
  '  object keys sorted and no spaces, `version` and `payload` as the event was first written (before any upcast).',
  '- `npm run -s admin -- ledger verify` checks the chain from the store; a consumer can check it from the topic.',
  '',
  '## Compatibility policy',
  '',
  '- A payload schema only ever changes by adding a nullable field with a `null` default (a new version',
  '  `v<N+1>` of the type, with an upcaster in code). Such a change is backward and forward compatible:',
  '  a reader with an older schema reads newer events (the new field is dropped), a newer reader reads',
  '  older events (the field takes its default).',
  '- No field is removed, renamed or retyped; string sets are plain strings, not Avro enums, so a new',
  '  value never breaks an old reader.',
  '- A test checks every `.avsc` ever committed (git history) against the current file of the same type',
  "  and version, and against the next versions, in both directions with Avro's schema resolution.",
  '- A new event type is a new schema: a reader that meets a type it does not know should skip it.',
  '',
  '## Streams and events',
  '',
];

/** Where an event's chain link starts: the first version whose Avro schema carries `prevHash`. */
const chainedFrom = (d: AnyEventDefinition): number | undefined =>
  Array.from({ length: d.latest }, (_, i) => i + 1).find((v) =>
    (d.avroSchema(v) as { fields: { name: string }[] }).fields.some((f) => f.name === 'prevHash'),
  );

/** One event: its meaning, whether it moves credits, its Avro files and its fields. */
function eventSection(files: { path: string; text: string }[], d: AnyEventDefinition): string[] {
  const decl = declarationOf(files, d.type);
  const out = [`#### \`${d.type}\` (version ${d.latest})`, ''];
  if (decl?.meaning) out.push(decl.meaning, '');
  if (d.movesCredits)
    out.push(
      `Moves credits: folded by the ledger, and chained (the envelope carries \`prevHash\` from version ${chainedFrom(d)} on).`,
      '',
    );
  const schemas = Array.from({ length: d.latest }, (_, i) => `\`events/${d.stream}/avro/${d.type}.v${i + 1}.avsc\``);
  out.push(`Avro schema: ${schemas.join(', ')}. Declared in \`${decl?.path ?? 'events/'}\`.`, '');
  out.push('| Field | Avro type | Meaning |', '| --- | --- | --- |', ...fieldRows(d, decl), '');
  return out;
}

/** One stream: its id pattern, what it is, then each of its events. */
function streamSection(
  files: { path: string; text: string }[],
  stream: StreamName,
  defs: readonly AnyEventDefinition[],
): string[] {
  const id = STREAM_IDS[stream] ?? `${stream}-<id>`;
  return [
    `### Stream \`${stream}\` (\`${id}\`)`,
    '',
    streamMeaning(files, stream),
    '',
    ...defs.filter((x) => x.stream === stream).flatMap((d) => eventSection(files, d)),
  ];
}

/** docs/events.md, from the declarations alone. `npm run events:docs` writes it; a test keeps it current. */
export function eventsDoc(defs: readonly AnyEventDefinition[] = catalogue): string {
  const files = sources(eventsDir);
  const streams = [...new Set(defs.map((d) => d.stream))];
  const out = [...PREAMBLE, ...streams.flatMap((stream) => streamSection(files, stream, defs))];
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(EVENTS_DOC, eventsDoc());
  console.log(EVENTS_DOC);
}
