import { Type, type Static } from 'typebox';

export const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  version: Type.String(),
  database: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
});
export type Health = Static<typeof Health>;
