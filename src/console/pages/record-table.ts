import { html, type Html } from '../../platform/html.js';

export type Cell = Html | string | number | null | undefined;

/** A section's table: one header row, one row per record (a link to its page when it has one), or a sentence. */
export function table<T>(
  rows: readonly T[],
  columns: [string, (row: T) => Cell][],
  options: { empty: string; href?: (row: T) => string },
): Html {
  if (rows.length === 0) return html`<p class="muted">${options.empty}</p>`;
  return html`<table>
    <thead>
      <tr>
        ${columns.map(([heading]) => html`<th scope="col">${heading}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows.map(
        (row) =>
          html`<tr ${options.href ? html`data-href="${options.href(row)}"` : ''}>
            ${columns.map(([, cell]) => html`<td>${cell(row) ?? ''}</td>`)}
          </tr>`,
      )}
    </tbody>
  </table>`;
}
