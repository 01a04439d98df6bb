import { expect } from 'vitest';
import type { TestService } from '../helpers/test-service.js';
import { signInAs, type TestStaffMember } from '../helpers/staff-driver.js';

/** The player page as a signed-in member of staff sees it (200). */
export async function playerPage(
  t: TestService,
  member: TestStaffMember,
  tenantId: string,
  userId: string,
): Promise<string> {
  const session = await signInAs(t, member);
  const response = await t.inject({
    method: 'GET',
    url: `/console/players/${encodeURIComponent(tenantId)}/${encodeURIComponent(userId)}`,
    headers: { cookie: `console_session=${session.cookie}` },
  });
  expect(response.statusCode).toBe(200);
  return response.body;
}

/** The rows of one section's table (under its `<h2>`), each as its cells' text (tags dropped, whitespace folded). */
export function sectionRows(body: string, heading: string): string[][] {
  const start = body.indexOf(`<h2>${heading}</h2>`);
  if (start < 0) throw new Error(`no section ${heading}`);
  const section = body.slice(start, body.indexOf('<h2>', start + 1));
  const tbody = /<tbody>([\s\S]*?)<\/tbody>/.exec(section)?.[1] ?? '';
  return [...tbody.matchAll(/<tr[^>]*>([\s\S]*?)<\/tr>/g)].map((row) =>
    [...row[1]!.matchAll(/<td>([\s\S]*?)<\/td>/g)].map((cell) =>
      cell[1]!
        .replace(/<[^>]+>/g, ' ')
        .replace(/\s+/g, ' ')
        .trim(),
    ),
  );
}
