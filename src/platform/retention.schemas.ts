import { Type, type Static } from 'typebox';

export const RetentionPeriod = Type.Union(
  [
    Type.Object({ years: Type.Integer({ minimum: 1, maximum: 100 }) }, { additionalProperties: false }),
    Type.Object({ days: Type.Integer({ minimum: 1, maximum: 36_500 }) }, { additionalProperties: false }),
  ],
  { description: 'Whole calendar years, or days' },
);

const NullablePeriod = Type.Union([RetentionPeriod, Type.Null()]);

export const RetentionTable = Type.Object({
  table: Type.String(),
  holds: Type.String(),
  basis: Type.String({ description: 'Why it is kept (docs/data.md)' }),
  from: Type.String({ description: 'Where the period counts from' }),
  end: Type.Union([Type.Literal('delete'), Type.Literal('pseudonymise')]),
  default: RetentionPeriod,
  override: NullablePeriod,
  in_force: RetentionPeriod,
  overridable: Type.Boolean({
    description:
      "False for what the tenant cannot change: tables without the tenant's own rows, the partitioned tables (a partition holds every tenant's), what the service needs to run, and the end of the relationship (it follows the longest of the others)",
  }),
  shortest: NullablePeriod,
  longest: NullablePeriod,
  bounds_reason: Type.Union([Type.String(), Type.Null()]),
  applied_by: Type.String(),
});

export const RetentionSettings = Type.Object({
  tenant_id: Type.String(),
  tables: Type.Array(RetentionTable),
});
export type RetentionSettings = Static<typeof RetentionSettings>;

export const RetentionOverridesRequest = Type.Object(
  {
    overrides: Type.Record(Type.String({ pattern: '^[a-z_]{1,63}$' }), NullablePeriod, {
      description:
        "A table's period for this tenant, in the unit of its default; null returns it to the default; an absent table keeps its override",
    }),
  },
  { additionalProperties: false },
);
export type RetentionOverridesRequest = Static<typeof RetentionOverridesRequest>;
