import fs from 'node:fs';
import { expect, it } from 'vitest';
import { ROLE_PERMISSIONS, STAFF_ACTIONS, STAFF_ROLES } from '../../src/staff/staff.rules.js';

it('documents the role table exactly as staff.rules.ts decides it', () => {
  const doc = fs.readFileSync(new URL('../../docs/console.md', import.meta.url), 'utf8');
  const rows = doc
    .split('\n')
    .filter((line) => /^\| `[a-z_]+`:/.test(line))
    .map((line) => {
      const cells = line
        .split('|')
        .slice(1, -1)
        .map((c) => c.trim());
      const action = /^`([a-z_]+)`/.exec(cells[0]!)![1]!;
      return [action, STAFF_ROLES.filter((_, i) => cells[i + 1] === 'yes')] as const;
    });
  expect(rows.map(([action]) => action)).toEqual([...STAFF_ACTIONS]);
  for (const [action, roles] of rows) {
    expect(roles, action).toEqual(
      STAFF_ROLES.filter((role) => ROLE_PERMISSIONS[role].includes(action as never)),
    );
  }
});
