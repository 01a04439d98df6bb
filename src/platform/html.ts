import { utcMinute } from './utc-calendar.js';

/**
 * Server-rendered HTML: every interpolated value is escaped unless it is already Html (a fragment built by this tag),
 * so a case's names or a tenant's strings can never become markup.
 */
export class Html {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

type Fragment = Html | string | number | boolean | null | undefined | readonly Fragment[];

function render(value: Fragment): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.value;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Fragment[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]!) + strings[i + 1]!;
  return new Html(out);
}

/** A date and time as staff read it everywhere in the console: UTC, to the minute, in a <time> element. */
export function time(at: Date | string | null | undefined): Html {
  if (!at) return html`<span class="muted">—</span>`;
  const iso = typeof at === 'string' ? at : at.toISOString();
  return html`<time datetime="${iso}">${utcMinute(iso)}</time>`;
}
