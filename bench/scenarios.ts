import { prng } from './lib/stats.js';

/** What the seeding step leaves for the load generator: keys and the shape of the seeded data. */
export interface BenchContext {
  runId: string;
  tenants: Array<{ tenant_id: string; api_key: string }>;
  usersPerTenant: number;
  /** Seeded exclusions are excluded{n}@bench.example for n below this. */
  exclusions: number;
  /** Addresses whose geo results were cached before the measured phase. */
  geoIps: string[];
}

/** Each tenant's events and withdrawals are in its own currency, converted to USD (rates: bench/run/service.ts). */
const TENANT_CURRENCIES = ['USD', 'EUR', 'GBP'] as const;

export type ScenarioName =
  | 'aml_event'
  | 'exclusions_check'
  | 'limits_check'
  | 'wager_check'
  | 'player_status'
  | 'geo_check'
  | 'aml_screen';

export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

const EVENT_TYPES = [
  'wager',
  'wager',
  'wager',
  'wager',
  'deposit',
  'settlement',
  'login',
  'withdrawal',
] as const;

/** Builds the i-th request of a scenario: realistic, varied, and the same sequence for the same seed. */
export function requestFactory(
  name: ScenarioName,
  ctx: BenchContext,
  seed: number,
): (i: number) => BenchRequest {
  const random = prng(seed);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const headersFor = (apiKey: string) => ({
    authorization: `Bearer ${apiKey}`,
    'content-type': 'application/json',
  });
  const user = () => `user_${Math.floor(random() * ctx.usersPerTenant)}`;

  switch (name) {
    case 'aml_event':
      return (i) => {
        const index = Math.floor(random() * ctx.tenants.length);
        const tenant = ctx.tenants[index]!;
        const type = pick(EVENT_TYPES);
        return {
          method: 'POST',
          path: '/v1/aml/event',
          headers: headersFor(tenant.api_key),
          body: JSON.stringify({
            user_id: user(),
            event_type: type,
            transaction_id: `bench-${ctx.runId}-${seed}-${i}`,
            amount_cents: type === 'login' ? 0 : 500 + Math.floor(random() * 20_000),
            currency: TENANT_CURRENCIES[index % TENANT_CURRENCIES.length],
            payment_method: 'card',
            metadata: {
              ip_country: 'CA',
              session_id: `s${Math.floor(random() * 1e6)}`,
              // R-006's instrument: without it the event takes no part in R-006.
              payment_method_fingerprint: `card_${Math.floor(random() * 50_000)}`,
            },
            occurred_at: new Date().toISOString(),
          }),
        };
      };
    case 'exclusions_check':
      return () => {
        const tenant = pick(ctx.tenants);
        // Half the look-ups hit a seeded exclusion, half are players who are not excluded.
        const email =
          random() < 0.5
            ? `excluded${Math.floor(random() * ctx.exclusions)}@bench.example`
            : `player${Math.floor(random() * 1e7)}@bench.example`;
        return {
          method: 'GET',
          path: `/v1/exclusions/check?email=${encodeURIComponent(email)}`,
          headers: { authorization: `Bearer ${tenant.api_key}` },
        };
      };
    case 'limits_check':
      return () => {
        const tenant = pick(ctx.tenants);
        return {
          method: 'POST',
          path: '/v1/limits/check',
          headers: headersFor(tenant.api_key),
          body: JSON.stringify({
            user_id: user(),
            amount_cents: 1_000 + Math.floor(random() * 5_000),
            currency: 'USD',
          }),
        };
      };
    case 'wager_check':
      return () => {
        const tenant = pick(ctx.tenants);
        return {
          method: 'POST',
          path: '/v1/limits/wager-check',
          headers: headersFor(tenant.api_key),
          body: JSON.stringify({
            user_id: user(),
            amount_cents: 100 + Math.floor(random() * 5_000),
            currency: 'USD',
          }),
        };
      };
    case 'player_status':
      return () => {
        const tenant = pick(ctx.tenants);
        // At login: half with the player's email, so the register is consulted too (a quarter of those excluded).
        const draw = random();
        const query =
          draw < 0.125
            ? `?email=${encodeURIComponent(`excluded${Math.floor(random() * ctx.exclusions)}@bench.example`)}`
            : draw < 0.5
              ? `?email=${encodeURIComponent(`player${Math.floor(random() * 1e7)}@bench.example`)}`
              : '';
        return {
          method: 'GET',
          path: `/v1/players/${user()}/status${query}`,
          headers: { authorization: `Bearer ${tenant.api_key}` },
        };
      };
    case 'geo_check':
      return () => {
        const tenant = pick(ctx.tenants);
        return {
          method: 'POST',
          path: '/v1/geo/check',
          headers: headersFor(tenant.api_key),
          body: JSON.stringify({ ip_address: pick(ctx.geoIps), user_agent: 'bench/1', context: 'signup' }),
        };
      };
    case 'aml_screen':
      return (i) => {
        const index = Math.floor(random() * ctx.tenants.length);
        const tenant = ctx.tenants[index]!;
        return {
          method: 'POST',
          path: '/v1/aml/screen',
          headers: headersFor(tenant.api_key),
          body: JSON.stringify({
            user_id: user(),
            withdrawal_id: `bench-wd-${ctx.runId}-${seed}-${i}`,
            amount_cents: 1_000_000 + Math.floor(random() * 500_000),
            currency: TENANT_CURRENCIES[index % TENANT_CURRENCIES.length],
            payment_method: 'bank_transfer',
            destination_country: 'CA',
          }),
        };
      };
  }
}
