import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { listVersionDetail, listVersions, listsInForce } from '../../areas/sanctions/index.js';
import type { Platform } from '../../platform/context.js';
import { memberOf } from '../console-auth.js';
import { html, time, type Html } from '../../platform/html.js';
import { page } from '../layout.js';
import {
  LISTS_PATH,
  listName,
  screeningFacts,
  screeningState,
  versionLink,
  versionPath,
  type VersionFacts,
} from './sanctions-parts.js';
import { sendPage } from './respond.js';

/** The versions table stops here: the back-office API pages further (`?limit=`, up to 200). */
const RECENT_VERSIONS = 50;

type ListInForce = Awaited<ReturnType<typeof listsInForce>>['lists'][number];

const fetchedAt = (at: string | Date | null) =>
  at ? time(at) : html`<span class="muted">put in by hand</span>`;

const changes = (v: VersionFacts) =>
  v.previous_version_id
    ? `${v.added} added · ${v.changed} changed · ${v.removed} removed`
    : html`<span class="muted">the baseline: ${v.entities} entities</span>`;

/** The latest version that changed a list: what it changed, and when it was published, fetched, accepted, screened. */
function lastChange(v: VersionFacts | null): Html {
  if (!v) return html`<p class="muted">No change since the first version recorded (the baseline).</p>`;
  return html`<dl class="facts">
    <dt>Version</dt>
    <dd>${versionLink(v)}</dd>
    <dt>Changes</dt>
    <dd>${changes(v)}</dd>
    <dt>Published</dt>
    <dd>${v.published_on}</dd>
    <dt>Fetched</dt>
    <dd>${fetchedAt(v.fetched_at)}</dd>
    <dt>Accepted</dt>
    <dd>${time(v.accepted_at)}</dd>
    ${screeningFacts(v)}
  </dl>`;
}

function listSection(l: ListInForce): Html {
  const id = `list-${l.list}`;
  return html`<section aria-labelledby="${id}" class="card">
    <h2 id="${id}">
      ${listName(l.list)}
      ${l.stale ? html`<span class="badge breached">stale</span>` : html`<span class="badge ok">current</span>`}
    </h2>
    ${
      l.warnings.length
        ? html`<ul class="warning">
            ${l.warnings.map((w) => html`<li>${w}</li>`)}
          </ul>`
        : ''
    }
    <dl class="facts">
      <dt>Published on</dt>
      <dd>${l.published_on} (${l.age_days} days ago)</dd>
      <dt>Fetched</dt>
      <dd>${fetchedAt(l.fetched_at)}</dd>
      <dt>Loaded</dt>
      <dd>${time(l.loaded_at)}</dd>
      <dt>Format</dt>
      <dd>${l.format}</dd>
      <dt>Entities</dt>
      <dd>${l.entities} (${l.names} names)</dd>
    </dl>
    <h3>Last change</h3>
    ${lastChange(l.last_change)}
  </section>`;
}

function versionsTable(versions: VersionFacts[]): Html {
  if (versions.length === 0) return html`<p class="muted">No list version recorded yet.</p>`;
  return html`<table>
    <thead>
      <tr>
        <th scope="col">Version</th>
        <th scope="col">Accepted</th>
        <th scope="col">Changes</th>
        <th scope="col">Screening</th>
      </tr>
    </thead>
    <tbody>
      ${versions.map(
        (v) =>
          html`<tr data-href="${versionPath(v.version_id)}">
            <td>${versionLink(v)}</td>
            <td>${time(v.accepted_at)}</td>
            <td>${changes(v)}</td>
            <td>${screeningState(v)}${v.screening ? html`<br />${v.screening.new_hits} new hits` : ''}</td>
          </tr>`,
      )}
    </tbody>
  </table>`;
}

/** One id per line of a version's added, changed or removed entities. */
function entityIds(heading: string, id: string, ids: string[]): Html {
  return html`<section aria-labelledby="${id}">
    <h2 id="${id}">${heading} (${ids.length})</h2>
    ${
      ids.length
        ? html`<ul class="ids">
            ${ids.map((e) => html`<li><code>${e}</code></li>`)}
          </ul>`
        : html`<p class="muted">None.</p>`
    }
  </section>`;
}

/**
 * The sanctions lists in force and the versions the service accepted: what each changed and how far the screening
 * of every player against it went. Read through the same verbs as the back office's lists view.
 */
export function sanctionsListPages(app: FastifyInstance, platform: Platform): void {
  app.get(LISTS_PATH, { config: { staffAction: 'read' } }, async (request, reply) => {
    const member = memberOf(request);
    const [status, { versions }] = await Promise.all([
      listsInForce(platform),
      listVersions(platform.db, { limit: RECENT_VERSIONS }),
    ]);
    const body = html`${
        status.warnings.length
          ? html`<ul class="warning">
              ${status.warnings.map((w) => html`<li>${w}</li>`)}
            </ul>`
          : ''
      }
      <p class="hint">
        Each list's newest publication in force. A version that adds or changes entities is screened against
        every player of the live tenants cut over for sanctions; a removal never clears a case by itself.
      </p>
      ${
        status.lists.length
          ? html`<div class="columns">${status.lists.map(listSection)}</div>`
          : html`<p class="muted">No list is loaded.</p>`
      }
      <h2>Recent versions</h2>
      <p class="hint">Newest first, every list.</p>
      ${versionsTable(versions)}`;
    return sendPage(reply, page({ title: 'Sanctions lists', member, current: LISTS_PATH }, body));
  });

  app.get<{ Params: { version_id: string } }>(
    `${LISTS_PATH}/versions/:version_id`,
    {
      config: { staffAction: 'read' },
      schema: { params: Type.Object({ version_id: Type.String({ minLength: 1, maxLength: 64 }) }) },
    },
    async (request, reply) => {
      const member = memberOf(request);
      const v = await listVersionDetail(platform.db, request.params.version_id);
      const body = html`<p><a href="${LISTS_PATH}">All sanctions lists</a></p>
        <dl class="facts">
          <dt>Version</dt>
          <dd><code>${v.version_id}</code></dd>
          <dt>List</dt>
          <dd>${listName(v.list)}</dd>
          <dt>Published</dt>
          <dd>${v.published_on}</dd>
          <dt>Format</dt>
          <dd>${v.format}</dd>
          <dt>Files</dt>
          <dd>${v.files.join(', ')}</dd>
          <dt>Entities</dt>
          <dd>${v.entities}</dd>
          <dt>Replaced</dt>
          <dd>
            ${
              v.previous_version_id
                ? html`<a href="${versionPath(v.previous_version_id)}">the previous version</a>`
                : html`nothing: the first version recorded, the baseline of later comparisons`
            }
          </dd>
          <dt>Fetched</dt>
          <dd>${fetchedAt(v.fetched_at)}</dd>
          <dt>Accepted</dt>
          <dd>${time(v.accepted_at)}</dd>
          ${screeningFacts(v)}
        </dl>
        ${
          v.previous_version_id
            ? html`${entityIds('Added', 'added-heading', v.entity_ids.added)}
              ${entityIds('Changed', 'changed-heading', v.entity_ids.changed)}
              ${entityIds('Removed (delisted)', 'removed-heading', v.entity_ids.removed)}`
            : ''
        }`;
      return sendPage(
        reply,
        page(
          // The id is in the facts: a long token in the heading would overflow a narrow screen.
          { title: `${listName(v.list)} list of ${v.published_on}`, member, current: LISTS_PATH },
          body,
        ),
      );
    },
  );
}
