import { Type, type Static } from 'typebox';
import { Timestamp } from '../platform/schemas.js';
import { STAFF_ROLES } from './staff.rules.js';

export const StaffRole = Type.Enum(STAFF_ROLES);

export const StaffAccount = Type.Object({
  staff_id: Type.String(),
  email: Type.String(),
  display_name: Type.String(),
  role: StaffRole,
  status: Type.Union([Type.Literal('invited'), Type.Literal('active'), Type.Literal('disabled')]),
  created_at: Timestamp,
  created_by: Type.String(),
  disabled_at: Type.Union([Timestamp, Type.Null()]),
});

export const StaffSession = Type.Object({
  staff_id: Type.String(),
  email: Type.String(),
  display_name: Type.String(),
  role: StaffRole,
  csrf_token: Type.String(),
});

export const StaffWithSetupLink = Type.Object({
  ...StaffAccount.properties,
  setup_path: Type.String({
    description:
      'The one-time link (a path on this service) to set a password and an authenticator; shown once',
  }),
  setup_link_expires_at: Timestamp,
});

export const CreateStaffRequest = Type.Object(
  {
    email: Type.String({ format: 'email', maxLength: 254 }),
    display_name: Type.String({ minLength: 1, maxLength: 100, pattern: '\\S' }),
    role: StaffRole,
  },
  { additionalProperties: false },
);
export type CreateStaffRequest = Static<typeof CreateStaffRequest>;

export const StaffParams = Type.Object({ staff_id: Type.String({ maxLength: 64 }) });

export const CASE_SUBJECTS = ['sanctions', 'aml', 'kyc'] as const;
export const CaseParams = Type.Object({
  subject: Type.Enum(CASE_SUBJECTS),
  subject_id: Type.String({ maxLength: 100 }),
});

export const NoteRequest = Type.Object(
  { body: Type.String({ minLength: 1, maxLength: 5000, pattern: '\\S' }) },
  { additionalProperties: false },
);

export const CaseNote = Type.Object({
  note_id: Type.String(),
  author: Type.String(),
  body: Type.String(),
  created_at: Timestamp,
});

export const CaseWork = Type.Object({
  assignee: Type.Union([Type.Object({ staff_id: Type.String(), display_name: Type.String() }), Type.Null()]),
  notes: Type.Array(CaseNote),
});
