import type { TSchema } from '@sinclair/typebox';
import { Kind, OptionalKind } from '@sinclair/typebox';

/**
 * Derives the Avro schema of an event payload from its TypeBox schema, so each event is declared
 * once. Nullable fields (Union with Null) become ["null", T] with default null: a field added with
 * that shape is a backward- and forward-compatible change. String literals map to plain strings,
 * not Avro enums, because adding an enum symbol breaks older readers.
 */
export type AvroSchema = string | string[] | Record<string, unknown> | AvroSchema[];

export function typeboxToAvro(schema: TSchema, name: string): AvroSchema {
  const kind = schema[Kind] as string;
  switch (kind) {
    case 'String':
      return 'string';
    case 'Integer':
      return 'long';
    case 'Number':
      return 'double';
    case 'Boolean':
      return 'boolean';
    case 'Literal':
      if (typeof schema.const === 'string') return 'string';
      if (typeof schema.const === 'boolean') return 'boolean';
      return Number.isInteger(schema.const) ? 'long' : 'double';
    case 'Array':
      return { type: 'array', items: typeboxToAvro(schema.items as TSchema, `${name}Item`) };
    case 'Record': {
      const values = Object.values(schema.patternProperties as Record<string, TSchema>)[0]!;
      return { type: 'map', values: typeboxToAvro(values, `${name}Value`) };
    }
    case 'Object': {
      const properties = schema.properties as Record<string, TSchema>;
      return {
        type: 'record',
        name,
        fields: Object.entries(properties).map(([field, s]) => {
          if (s[OptionalKind] === 'Optional') {
            throw new Error(`${name}.${field}: event payloads use Nullable (Union with Null), not Optional`);
          }
          const nullable = isNullable(s);
          const inner = nullable ? typeboxToAvro(nonNull(s), `${name}_${field}`) : typeboxToAvro(s, `${name}_${field}`);
          return nullable ? { name: field, type: ['null', inner], default: null } : { name: field, type: inner };
        }),
      };
    }
    case 'Union': {
      const anyOf = schema.anyOf as TSchema[];
      if (anyOf.every((s) => s[Kind] === 'Literal' && typeof s.const === 'string')) return 'string';
      if (isNullable(schema)) return ['null', typeboxToAvro(nonNull(schema), name) as string];
      throw new Error(`${name}: unions other than string literals or T | null have no Avro mapping here`);
    }
    default:
      throw new Error(`${name}: TypeBox kind ${kind} has no Avro mapping`);
  }
}

const isNullable = (s: TSchema): boolean =>
  s[Kind] === 'Union' && (s.anyOf as TSchema[]).length === 2 && (s.anyOf as TSchema[]).some((x) => x[Kind] === 'Null');

const nonNull = (s: TSchema): TSchema => (s.anyOf as TSchema[]).find((x) => x[Kind] !== 'Null')!;
