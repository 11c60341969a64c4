import { Type, type Static } from '@sinclair/typebox';
import { SHARE_DAYS_MAX, SHARE_DAYS_MIN } from '../../pipeline/limits.ts';
import { ApiVersion } from './common.ts';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

/** POST /audits/{id}/share body (spec 4.7): optional; the field omitted, null, or 1-365 days from now. */
export const ShareBody = Type.Object(
  {
    shareExpiresInDays: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: SHARE_DAYS_MIN,
          maximum: SHARE_DAYS_MAX,
          description:
            'Days from now; null removes the expiry; omitted leaves an existing expiry untouched (a new link: none)',
        }),
      ),
    ),
  },
  { additionalProperties: false },
);

export const ShareResponse = Type.Object(
  {
    id: Type.String({ description: 'Job id' }),
    auditId: Type.String(),
    shareUrl: Type.String({
      description: 'Public read-only report, no login: PUBLIC_BASE_URL/share/<token>?lang=pl|en',
    }),
    expiresAt: Nullable(Type.String({ format: 'date-time', description: 'null: never expires' })),
    apiVersion: ApiVersion,
  },
  { additionalProperties: false },
);

export const RevokeResponse = Type.Object(
  { id: Type.String(), auditId: Type.String(), shareUrl: Type.Null(), apiVersion: ApiVersion },
  { additionalProperties: false },
);

export type ShareBody = Static<typeof ShareBody>;
