import { Type, type TLiteral, type TUnion } from '@sinclair/typebox';

/** The small TypeBox building blocks every stream's payloads use (each maps to an Avro type, events/avro.ts). */
export const Str = Type.String();
export const NonEmpty = Type.String({ minLength: 1 });

/** `T` or null: an Avro union with null first, so a new field can default to null. */
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

/** One of the given strings (an Avro enum-like union of literals). */
export const literals = <T extends readonly string[]>(values: T) =>
  Type.Union(values.map((v) => Type.Literal(v))) as unknown as TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }>;
