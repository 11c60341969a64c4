import { createRequire } from 'node:module';
import type { FastifySchemaCompiler } from 'fastify';
import { Ajv, type Options } from 'ajv';

const require = createRequire(import.meta.url);
const addFormats = require('ajv-formats') as (ajv: unknown) => void;

const base: Options = {
  useDefaults: true,
  removeAdditional: false,
  allErrors: false,
  addUsedSchema: false,
  strict: false,
};

/**
 * Query strings and path parameters arrive as text, so `?page=2` must be coerced to the integer
 * its schema declares; bodies are JSON and must NOT be (spec 4.2: the string "true" for a boolean
 * is a 400). Fastify's one Ajv (app.ts) does not coerce; this compiler, set on the /api/v1 scope,
 * adds a coercing instance for querystring and params only.
 */
export function apiValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const strict = new Ajv({ ...base, coerceTypes: false });
  const coercing = new Ajv({ ...base, coerceTypes: 'array' });
  addFormats(strict);
  addFormats(coercing);
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'querystring' || httpPart === 'params' ? coercing : strict;
    return ajv.compile(schema as object);
  };
}
