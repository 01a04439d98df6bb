import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Platform } from './context.js';
import { listFxRates, setFxRateByStaff } from './fx.js';
import { CurrencyCode, errorResponses, NullableTimestamp } from './schemas.js';
import { requestStaffContext } from './service-context.js';

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
      (req) =>
        setFxRateByStaff(requestStaffContext(platform, req), {
          currency: req.params.currency,
          usdPerUnit: req.body.usd_per_unit,
        }),
    );
  };
}
