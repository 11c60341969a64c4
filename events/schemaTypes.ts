import { Type, type TLiteral, type TUnion } from '@sinclair/typebox';

/** The small TypeBox building blocks every stream's payloads use (each maps to an Avro type, events/avro.ts). */
export const Str = Type.String();
export const NonEmpty = Type.String({ minLength: 1 });

/** `T` or null: an Avro union with null first, so a new field can default to null. */
export const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

/** One of the given strings (an Avro enum-like union of literals). */
export const literals = <T extends readonly string[]>(values: T) =>
  Type.Union(values.map((v) => Type.Literal(v))) as unknown as TUnion<{ -readonly [K in keyof T]: TLiteral<T[K]> }>;

/**
 * The three shapes a secret or a person's data may take in the log, and the only ones: a field that
 * names such a thing uses one of them (a test walks every schema for it), and the store refuses a
 * payload whose value does not fit (payloads are checked at append).
 * - Sealed: AES-256-GCM under a key kept outside the log, `enc:v1:<base64url>` (infra/secrets);
 *   personal data, whose key erasure destroys.
 * - SecretRef: names a secret kept outside the log, `vault:<id>`; says one was issued, not what it is.
 * - SecretHash: `sha256:<hex>` of a secret the holder presents (a share token): enough to check it,
 *   not to use it.
 */
export const SEALED_PATTERN = '^enc:v1:[A-Za-z0-9_-]+$';
export const SECRET_REF_PATTERN = '^vault:[a-z]+_[a-z2-7]+$';
export const SECRET_HASH_PATTERN = '^sha256:[0-9a-f]{64}$';
export const Sealed = Type.String({ pattern: SEALED_PATTERN, guard: 'sealed' });
export const SecretRef = Type.String({ pattern: SECRET_REF_PATTERN, guard: 'reference' });
export const SecretHash = Type.String({ pattern: SECRET_HASH_PATTERN, guard: 'hash' });
