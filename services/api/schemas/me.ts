import { Type, type Static } from '@sinclair/typebox';
import { ApiVersion } from './common.ts';

const Scope = Type.Union([Type.Literal('audits:read'), Type.Literal('audits:write')]);

/** Spec 2.1: the account behind the calling key (GET /me). */
export const MeResponse = Type.Object(
  {
    userId: Type.String({ description: 'Account id (usr_...)' }),
    email: Type.String(),
    role: Type.String({ description: 'user or admin' }),
    auditCredits: Type.Integer({ description: 'Credit balance, as `remaining` in GET /credits/usage' }),
    apiKey: Type.Object({
      id: Type.String({ description: 'Key id (key_...)' }),
      scopes: Type.Array(Scope),
      webhookSecret: Type.Optional(
        Type.String({ description: 'Only for keys with audits:write; one per account, the same for all its keys' }),
      ),
    }),
    apiVersion: ApiVersion,
  },
  { additionalProperties: false },
);
export type MeResponse = Static<typeof MeResponse>;
