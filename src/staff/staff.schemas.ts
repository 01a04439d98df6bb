import { Type, type Static } from 'typebox';
import { REVIEW_QUEUES } from '../platform/case-work/descriptor.js';
import { DecisionProposal, NullableTimestamp, Timestamp } from '../platform/schemas.js';
import { STAFF_ROLES } from './staff.rules.js';

export const StaffRole = Type.Enum(STAFF_ROLES);

export const StaffAccount = Type.Object({
  staff_id: Type.String(),
  email: Type.String(),
  display_name: Type.String(),
  role: StaffRole,
  status: Type.Union(
    [
      Type.Literal('proposed'),
      Type.Literal('invited'),
      Type.Literal('active'),
      Type.Literal('disabled'),
      Type.Literal('removed'),
    ],
    {
      description:
        'proposed: an admin or supervisor account awaiting a second admin; invited: its setup link mailed; removed: a proposed account a second admin rejected',
    },
  ),
  reviewer_ref: Type.String({
    description: 'How webhooks name this member of staff to tenants (opaque, stable; never their id or name)',
  }),
  created_at: Timestamp,
  created_by: Type.String({ description: 'A staff id, or backoffice for a bootstrap admin' }),
  approved_by: Type.Union([Type.String(), Type.Null()], {
    description: 'The second admin who approved an account that can approve decisions',
  }),
  approved_at: NullableTimestamp,
  changed_by: Type.Union([Type.String(), Type.Null()]),
  changed_at: NullableTimestamp,
  disabled_at: NullableTimestamp,
  pending_proposal: Type.Union([DecisionProposal, Type.Null()], {
    description: 'A change of the account awaiting a second admin (create, enable, role:<role>)',
  }),
});

export const StaffSession = Type.Object({
  staff_id: Type.String(),
  email: Type.String(),
  display_name: Type.String(),
  role: StaffRole,
  csrf_token: Type.String(),
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

export const SetRoleRequest = Type.Object({ role: StaffRole }, { additionalProperties: false });

export const CaseParams = Type.Object({
  subject: Type.Enum(REVIEW_QUEUES),
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
