import type { StaffMember } from '../platform/context.js';
import { roleMay, type StaffAction } from '../staff/index.js';
import { html, type Html } from '../platform/html.js';

const NAV: { href: string; label: string; action: StaffAction }[] = [
  { href: '/console', label: 'Dashboard', action: 'read' },
  { href: '/console/queues/sanctions', label: 'Sanctions hits', action: 'read' },
  { href: '/console/queues/aml', label: 'AML cases', action: 'read' },
  { href: '/console/queues/kyc', label: 'KYC reviews', action: 'read' },
  { href: '/console/queues/safer_gambling', label: 'Safer gambling', action: 'read' },
  { href: '/console/approvals', label: 'Approvals', action: 'read' },
  { href: '/console/tenants', label: 'Tenants', action: 'read' },
  { href: '/console/countries', label: 'Countries', action: 'read' },
  { href: '/console/regulator', label: 'Regulator list', action: 'read' },
  { href: '/console/sanctions/lists', label: 'Sanctions lists', action: 'read' },
  { href: '/console/staff', label: 'Staff', action: 'read' },
  { href: '/console/audit', label: 'Audit log', action: 'read' },
  { href: '/console/data-requests', label: 'Data requests', action: 'handle_data_requests' },
  { href: '/console/reports', label: 'Reports', action: 'read_reports' },
  { href: '/console/regulator/exports', label: 'Regulator exports', action: 'read_reports' },
];

export interface PageOptions {
  title: string;
  member?: StaffMember | undefined;
  /** The nav entry to mark as current (its href). */
  current?: string;
  /** Problems to list at the top, each linking to its field (GOV.UK's error summary). */
  errors?: { field?: string; message: string }[];
  /** A one-line confirmation of what just happened. */
  notice?: string | undefined;
  /** The service clock's now, which the live SLA countdowns count from (the test clock may differ from the browser's). */
  now?: Date;
}

function errorSummary(errors: PageOptions['errors']): Html | '' {
  if (!errors?.length) return '';
  return html`<div class="error-summary" role="alert" tabindex="-1" data-focus>
    <h2>There is a problem</h2>
    <ul>
      ${errors.map((e) => (e.field ? html`<li><a href="#${e.field}">${e.message}</a></li>` : html`<li>${e.message}</li>`))}
    </ul>
  </div>`;
}

/** Every console page: one stylesheet and one script, both served by the service (the CSP allows nothing else). */
export function page(options: PageOptions, body: Html): Html {
  const { member } = options;
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Compliance console</title>
<link rel="stylesheet" href="/console/assets/console.css">
<script src="/console/assets/console.js" defer></script>
</head>
<body${options.now ? html` data-now="${options.now.toISOString()}"` : ''}>
<a class="skip-link" href="#main">Skip to main content</a>
<header class="top">
  <span class="brand">Compliance console</span>
  ${
    member
      ? html`<span class="who">${member.display_name} · ${member.role}</span>
          <form method="post" action="/console/logout" class="inline">
            <input type="hidden" name="_csrf" value="${member.csrf_token}" />
            <button type="submit" class="link">Sign out</button>
          </form>`
      : ''
  }
</header>
${
  member
    ? html`<nav aria-label="Console">
        <ul>
          ${NAV.filter((n) => roleMay(member.role, n.action)).map(
            (n) =>
              html`<li>
                <a href="${n.href}" ${n.href === options.current ? html` aria-current="page"` : ''}
                  >${n.label}</a
                >
              </li>`,
          )}
        </ul>
      </nav>`
    : ''
}
<main id="main" tabindex="-1">
${options.notice ? html`<p class="notice" role="status">${options.notice}</p>` : ''}
${errorSummary(options.errors)}
<h1>${options.title}</h1>
${body}
</main>
</body>
</html>`;
}

/** The hidden anti-forgery field every console form carries. */
export const csrfField = (member: StaffMember) =>
  html`<input type="hidden" name="_csrf" value="${member.csrf_token}" />`;
