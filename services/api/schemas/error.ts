import { Type, type Static } from '@sinclair/typebox';

/**
 * The one error shape of the API (spec 7), with room for the extra fields some errors carry;
 * `apiVersion` at the top level as on every response (spec 9.3).
 */
export const ErrorBody = Type.Object({
  error: Type.Object(
    {
      code: Type.String(),
      message: Type.String(),
      requestId: Type.String(),
    },
    { additionalProperties: true },
  ),
  apiVersion: Type.String(),
});
export type ErrorBody = Static<typeof ErrorBody>;
