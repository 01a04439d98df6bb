import { parse } from 'csv-parse/sync';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import {
  DURATIONS,
  type RegulatorEntry,
  addRegulatorEntries,
  getStaffExclusion,
  voidExclusion,
  regulatorRowsPage,
} from '../../areas/exclusions/index.js';
import type { Platform, StaffMember } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { roleMay } from '../../staff/index.js';
import { consoleContext, memberOf } from '../console-auth.js';
import { html, time } from '../../platform/html.js';
import { csrfField, page } from '../layout.js';

import { exclusionPath } from './case-parts.js';
import { redirectWithNotice, sendPage } from './respond.js';

const CURRENT = '/console/regulator';
const PAGE_SIZE = 50;
const MAX_ENTRIES = 1000;
const rowCount = (n: number) => (n === 1 ? '1 row' : `${n} rows`);
type Row = Awaited<ReturnType<typeof regulatorRowsPage>>[number];

/**
 * The pasted CSV as the back office's entries: a header row naming email, phone, duration, environment (any order);
 * a duration may drop its `duration_` prefix. Throws a 400 naming the first line at fault.
 */
export function parseRegulatorCsv(text: string): RegulatorEntry[] {
  let records: Record<string, string>[];
  try {
    records = parse(text, {
      columns: (h: string[]) => h.map((c) => c.trim().toLowerCase()),
      skip_empty_lines: true,
      trim: true,
    });
  } catch (error) {
    throw new AppError('invalid_payload', `The CSV could not be read: ${(error as Error).message}`);
  }
  if (records.length === 0) throw new AppError('invalid_payload', 'The CSV has no entries');
  if (records.length > MAX_ENTRIES)
    throw new AppError('invalid_payload', `At most ${MAX_ENTRIES} entries at a time`);
  return records.map((record, index) => {
    const line = `Line ${index + 2}`;
    const raw = record.duration ?? '';
    const duration = (raw.startsWith('duration_') ? raw : `duration_${raw}`) as RegulatorEntry['duration'];
    if (!DURATIONS.includes(duration))
      throw new AppError('invalid_payload', `${line}: duration must be one of ${DURATIONS.join(', ')}`);
    const environment = record.environment;
    if (environment !== 'sandbox' && environment !== 'live')
      throw new AppError('invalid_payload', `${line}: environment must be sandbox or live`);
    const entry: RegulatorEntry = { duration, environment };
    if (record.email) entry.email = record.email.slice(0, 320);
    if (record.phone) entry.phone = record.phone.slice(0, 64);
    if (!entry.email && !entry.phone)
      throw new AppError('invalid_payload', `${line}: an email or a phone is required`);
    return entry;
  });
}

function rowHtml(row: Row, member: StaffMember, mayVoid: boolean) {
  const id = row.exclusion_id;
  return html`<tr>
    <td>
      <a href="${exclusionPath(id)}"><code>${id}</code></a>
    </td>
    <td>${row.environment}</td>
    <td>${row.email ?? '—'}</td>
    <td>${row.phone ?? '—'}</td>
    <td>${row.duration}</td>
    <td>${row.status}${row.void_reason ? html`<br /><span class="hint">${row.void_reason}</span>` : ''}</td>
    <td>${time(row.effective_from)}</td>
    <td>${row.is_permanent ? 'Never' : time(row.expires_at)}</td>
    ${
      mayVoid
        ? html`<td>
            ${
              row.status === 'active'
                ? html`<form
                    method="post"
                    action="${CURRENT}/${id}/void"
                    class="row"
                    data-confirm="Void row ${id}?"
                  >
                    ${csrfField(member)}
                    <label for="reason-${id}">Reason to void ${id}</label>
                    <input id="reason-${id}" name="reason" required maxlength="1000" />
                    <button type="submit" class="danger">Void</button>
                  </form>`
                : ''
            }
          </td>`
        : ''
    }
  </tr>`;
}

function uploadForm(member: StaffMember, csv: string) {
  return html`<h2>Upload entries</h2>
    <form method="post" action="${CURRENT}" class="stack">
      ${csrfField(member)}
      <label for="csv">CSV entries</label>
      <p class="hint" id="csv-hint">
        Paste the regulator's form as CSV, with a header row: <code>email,phone,duration,environment</code>.
        Each row needs an email or a phone (international form, +44…); duration is one of 24h, 7d, 30d, 6m,
        1y, permanent (or duration_24h…); environment is sandbox or live. Up to ${MAX_ENTRIES} rows; an entry
        already on the list is not added twice.
      </p>
      <textarea id="csv" name="csv" rows="8" required aria-describedby="csv-hint">${csv}</textarea>
      <button type="submit">Upload entries</button>
    </form>`;
}

/** The regulator's master list: newest rows first, a pasted CSV upload and a void per row, for the operators. */
export function regulatorPages(app: FastifyInstance, platform: Platform): void {
  const listPage = async (request: FastifyRequest, options: { error?: string; csv?: string } = {}) => {
    const member = memberOf(request);
    const mayOperate = roleMay(member.role, 'operate_service');
    // Voiding a row is case work, as on the back-office API: a permanent row's void still needs a second approver.
    const mayVoid = roleMay(member.role, 'decide_cases');
    const { before, notice } = request.query as { before?: string; notice?: string };
    const rows = await regulatorRowsPage(platform.db, { before, limit: PAGE_SIZE + 1 });
    const shown = rows.slice(0, PAGE_SIZE);
    const next = rows.length > PAGE_SIZE ? shown.at(-1)!.exclusion_id : undefined;
    return page(
      {
        title: 'Regulator list',
        member,
        current: CURRENT,
        notice,
        errors: options.error ? [{ field: 'csv', message: options.error }] : [],
      },
      html`${mayOperate ? uploadForm(member, options.csv ?? '') : ''}
        <h2>Rows, newest first</h2>
        <table>
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">Environment</th>
              <th scope="col">Email</th>
              <th scope="col">Phone</th>
              <th scope="col">Duration</th>
              <th scope="col">Status</th>
              <th scope="col">From</th>
              <th scope="col">Expires</th>
              ${mayVoid ? html`<th scope="col">Void</th>` : ''}
            </tr>
          </thead>
          <tbody>
            ${shown.map((row) => rowHtml(row, member, mayVoid))}
          </tbody>
        </table>
        ${shown.length === 0 ? html`<p class="muted">No rows.</p>` : ''}
        <p class="row">
          ${before ? html`<a href="${CURRENT}">Newest rows</a>` : ''}
          ${next ? html`<a rel="next" href="${CURRENT}?before=${next}">Older rows</a>` : ''}
        </p>`,
    );
  };

  app.get<{ Querystring: { before?: string; notice?: string } }>(
    CURRENT,
    {
      config: { staffAction: 'read' },
      schema: {
        querystring: Type.Object({
          before: Type.Optional(Type.String({ maxLength: 64 })),
          notice: Type.Optional(Type.String({ maxLength: 500 })),
        }),
      },
    },
    async (request, reply) => sendPage(reply, await listPage(request)),
  );

  app.post<{ Body: { csv: string } }>(
    CURRENT,
    {
      config: { staffAction: 'operate_service' },
      schema: { body: Type.Object({ csv: Type.String({ maxLength: 1_000_000 }) }) },
    },
    async (request, reply) => {
      const csv = request.body.csv;
      try {
        const entries = parseRegulatorCsv(csv);
        const { result, created } = await addRegulatorEntries(
          platform,
          consoleContext(platform, request),
          entries,
        );
        const already = result.exclusions.length - created;
        return redirectWithNotice(
          reply,
          CURRENT,
          `${rowCount(created)} added, ${already} already on the list`,
        );
      } catch (error) {
        if (!(error instanceof AppError) || error.statusCode !== 400) throw error;
        const again = await listPage(request, {
          // The verb names an entry by its index in the batch; the admin reads lines of the CSV.
          error: error.message.replace(
            /entries\/(\d+)\/(\S+)/,
            (_m, i: string, field: string) => `Line ${Number(i) + 2}: ${field}`,
          ),
          csv,
        });
        return sendPage(reply, again, 400);
      }
    },
  );

  app.post<{ Params: { exclusion_id: string }; Body: { reason: string } }>(
    `${CURRENT}/:exclusion_id/void`,
    {
      config: { staffAction: 'decide_cases' },
      schema: {
        body: Type.Object({ reason: Type.String({ minLength: 1, maxLength: 1000, pattern: '\\S' }) }),
      },
    },
    async (request, reply) => {
      const { exclusion_id } = request.params;
      // This page voids the regulator's rows only; an operator's row is voided from its case or the back office.
      const ctx = consoleContext(platform, request);
      if ((await getStaffExclusion(ctx, exclusion_id)).origin !== 'regulator')
        throw new AppError('exclusion_not_found', `No regulator row ${exclusion_id}`);
      const { voided } = await voidExclusion(ctx, exclusion_id, {
        reason: request.body.reason.trim(),
      });
      // A permanent row waits for a second member of staff (the approvals page); a timed one is void at once.
      const notice = voided
        ? `Row ${exclusion_id} voided`
        : `Void of ${exclusion_id} proposed: a second member of staff must approve it on the row's page`;
      return redirectWithNotice(reply, CURRENT, notice);
    },
  );
}
