import { Type, type Static } from 'typebox';

/** A player's data export (docs/data.md): validates, types and documents the answer at once. */
export const ExportedTable = Type.Object({
  table: Type.String(),
  holds: Type.String({ description: 'What the table holds' }),
  source: Type.String({ description: 'Where it comes from: the endpoint or the work that writes it' }),
  basis: Type.String({ description: 'Why it is kept' }),
  kept: Type.String({ description: 'How long, from when, and what happens then' }),
  then: Type.Union([Type.Literal('delete'), Type.Literal('pseudonymise')]),
  rows: Type.Array(Type.Record(Type.String(), Type.Unknown()), {
    description: "The player's rows, as stored",
  }),
  truncated: Type.Boolean({ description: 'More rows exist than an export carries' }),
});

export const PlayerDataExport = Type.Object({
  tenant_id: Type.String(),
  user_id: Type.String(),
  generated_at: Type.String({ format: 'date-time' }),
  summary: Type.Array(Type.String(), { description: 'A short account for a person, a line each' }),
  data: Type.Array(ExportedTable),
  not_tied_to_a_player: Type.Array(
    Type.Object({ table: Type.String(), holds: Type.String(), personal: Type.Array(Type.String()) }),
    { description: 'Personal data held without a player id, so it cannot be tied to this player' },
  ),
});

export type PlayerDataExport = Static<typeof PlayerDataExport>;
export type ExportedTable = Static<typeof ExportedTable>;

export const ContactDataExport = Type.Object({
  email: Type.Union([Type.String(), Type.Null()], { description: 'The email exported, normalised' }),
  phone: Type.Union([Type.String(), Type.Null()], { description: 'The phone exported, in E.164' }),
  generated_at: Type.String({ format: 'date-time' }),
  summary: Type.Array(Type.String(), { description: 'A short account for a person, a line each' }),
  data: Type.Array(ExportedTable),
});
export type ContactDataExport = Static<typeof ContactDataExport>;
