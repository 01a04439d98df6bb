import { Type, type Static } from 'typebox';

export const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  version: Type.String(),
  database: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
});
export type Health = Static<typeof Health>;

/** One check of readiness: ok, or failing (never why: no hosts, secrets or error texts). */
const check = (description: string) =>
  Type.Union([Type.Literal('ok'), Type.Literal('failing')], { description });

export const Readiness = Type.Object(
  {
    status: Type.Union([Type.Literal('ready'), Type.Literal('not_ready')]),
    checks: Type.Object({
      database: check('the database answers'),
      migrations: check("every migration of this build's has been applied to the database"),
      redis: Type.Optional(check('Redis answers; present only when REDIS_URL is set')),
      vendors: check(
        'every area an active live tenant is cut over for has its production vendor, with its data loaded',
      ),
      shutdown: check('failing once the process has been told to stop, while it drains'),
    }),
  },
  { description: 'ready (200) when every check is ok; otherwise not_ready (503), naming the failing checks' },
);
export type Readiness = Static<typeof Readiness>;
