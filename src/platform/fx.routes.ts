import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Platform } from './context.js';
import { AppError } from './errors.js';
import { BASE_CURRENCY, listFxRates, setFxRate } from './fx.js';
import { CurrencyCode, errorResponses, NullableTimestamp } from './schemas.js';
import { recordAudit } from './audit.js';

export const FxRate = Type.Object({
  currency: Type.String(),
  usd_per_unit: Type.Number({ description: 'USD value of one major unit of the currency' }),
  updated_at: NullableTimestamp,
});

export const SetFxRateRequest = Type.Object(
  { usd_per_unit: Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000 }) },
  { additionalProperties: false },
);

const tags = ['fx'];

/** The staff's FX table under /backoffice/v1: KYC tiers and AML thresholds are in USD, converted with it. */
export function fxRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.get(
      '/fx-rates',
      { schema: { tags, response: { 200: Type.Object({ rates: Type.Array(FxRate) }) } } },
      async () => ({ rates: await listFxRates(platform.db) }),
    );

    app.put(
      '/fx-rates/:currency',
      {
        schema: {
          tags,
          params: Type.Object({ currency: CurrencyCode }),
          body: SetFxRateRequest,
          response: { 200: FxRate, ...errorResponses(400) },
        },
      },
      async (req) => {
        const { currency } = req.params;
        // Every USD threshold is defined against USD itself: its rate is 1 by definition.
        if (currency === BASE_CURRENCY && req.body.usd_per_unit !== 1) {
          throw new AppError('invalid_request', 400, 'USD is the base currency; its rate is always 1');
        }
        const now = platform.clock.now();
        return platform.db.transaction().execute(async (tx) => {
          const rate = await setFxRate(tx, currency, req.body.usd_per_unit, now);
          // Every USD-denominated AML threshold moves with it: a staff decision, audited service-wide.
          await recordAudit(tx, {
            tenantId: null,
            actor: 'backoffice',
            action: 'fx.rate_set',
            requestId: req.id,
            details: { currency, usd_per_unit: req.body.usd_per_unit },
            at: now,
          });
          return rate;
        });
      },
    );
  };
}
