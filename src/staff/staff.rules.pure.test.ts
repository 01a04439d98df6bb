import { describe, expect, it } from 'vitest';
import {
  APPROVER_ROLES,
  backofficeRouteAction,
  PERSON_ONLY_ACTIONS,
  roleMay,
  SIGN_IN_THROTTLES,
  signInWaits,
  STAFF_ACTIONS,
  STAFF_ROLES,
  tokenMay,
  type StaffAction,
} from './staff.rules.js';

const yes = true;
const no = false;

/** The role table of docs/console.md, written out again: a wrong cell in staff.rules.ts fails its own test. */
// prettier-ignore
const ROLE_TABLE: [StaffAction, admin: boolean, supervisor: boolean, reviewer: boolean, auditor: boolean, regulator: boolean][] = [
  ['read',                yes, yes, yes, yes, no ],
  ['decide_cases',        yes, yes, yes, no,  no ],
  ['approve_decisions',   yes, yes, no,  no,  no ],
  ['manage_tenants',      yes, no,  no,  no,  no ],
  ['operate_service',     yes, no,  no,  no,  no ],
  ['manage_staff',        yes, no,  no,  no,  no ],
  ['read_reports',        yes, yes, yes, yes, yes],
  ['acknowledge_exports', yes, no,  no,  no,  yes],
  ['read_mail',           yes, no,  no,  no,  no ],
  ['handle_data_requests', yes, no, no,  no,  no ],
];

describe('the staff role table', () => {
  it('has the five roles and the ten actions of the docs, in their order', () => {
    expect(STAFF_ROLES).toEqual(['admin', 'supervisor', 'reviewer', 'auditor', 'regulator']);
    expect(STAFF_ACTIONS).toEqual(ROLE_TABLE.map(([action]) => action));
  });

  const cells = ROLE_TABLE.flatMap(([action, ...mays]) =>
    mays.map((may, i) => [STAFF_ROLES[i]!, may ? 'may' : 'may not', action, may] as const),
  );
  it.each(cells)('%s %s %s', (role, _, action, may) => {
    expect(roleMay(role, action)).toBe(may);
  });

  it('lets only admins and supervisors approve a four-eyes decision', () => {
    expect(APPROVER_ROLES).toEqual(['admin', 'supervisor']);
  });
});

describe('the back-office token', () => {
  it("takes none of a person's acts: deciding, approving, managing staff", () => {
    expect([...PERSON_ONLY_ACTIONS].sort()).toEqual(['approve_decisions', 'decide_cases', 'manage_staff']);
  });

  it.each([
    ['POST', '/tenants', true],
    ['PUT', '/fx-rates/:currency', true],
    ['GET', '/aml/cases', true],
    ['POST', '/staff', true],
    ['POST', '/aml/cases/:case_id/decision', false],
    ['POST', '/aml/cases/:case_id/proposal/approve', false],
    ['POST', '/kyc/reviews/:kyc_check_id/decision', false],
    ['POST', '/staff/:staff_id/disable', false],
  ] as const)('%s %s: the token may call it: %s', (method, url, may) => {
    expect(tokenMay(method, url)).toBe(may);
  });
});

describe('the action of a back-office route', () => {
  it.each([
    ['GET', '/aml/cases', 'read'],
    ['HEAD', '/tenants', 'read'],
    ['GET', '/reports', 'read_reports'],
    ['GET', '/regulator/exports', 'read_reports'],
    ['GET', '/mail', 'read_mail'],
    ['POST', '/regulator/exports/:export_id/ack', 'acknowledge_exports'],
    ['POST', '/clock/advance', 'operate_service'],
    ['POST', '/no/such/route', undefined],
  ] as const)('%s %s takes %s', (method, url, action) => {
    expect(backofficeRouteAction(method, url)).toBe(action);
  });
});

describe('the sign-in throttles', () => {
  it('one email from one address: 3 free failures, then 1 s doubling up to 60 s', () => {
    expect(signInWaits(SIGN_IN_THROTTLES.email_from_address)).toEqual([0, 0, 0, 1, 2, 4, 8, 16, 32, 60]);
  });

  it('one email from every address: 10 free failures, then 1 s doubling up to 10 s', () => {
    expect(signInWaits(SIGN_IN_THROTTLES.email)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 4, 8, 10]);
  });
});
