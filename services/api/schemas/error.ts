import { Type, type Static } from '@sinclair/typebox';

/** The one error shape of the API (spec 7), with room for the extra fields some errors carry. */
export const ErrorBody = Type.Object({
  error: Type.Object(
    {
      code: Type.String(),
      message: Type.String(),
      requestId: Type.String(),
    },
    { additionalProperties: true },
  ),
});
export type ErrorBody = Static<typeof ErrorBody>;

export const API_VERSION = 'v1.4';
