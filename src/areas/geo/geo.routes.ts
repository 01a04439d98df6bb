import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Platform } from '../../platform/context.js';
import { AppError } from '../../platform/errors.js';
import { downloadReport, downloadStates } from '../../platform/downloads.js';
import { DownloadReport, errorResponses, Timestamp } from '../../platform/schemas.js';
import { requestStaffContext } from '../../platform/service-context.js';
import { fetchGeoDatabase, GEOIP_SOURCE_ID } from './resolver/database-fetch.js';
import {
  CountryList,
  CountryListEntry,
  CountryParams,
  GeoCheckRequest,
  GeoResult,
  SetCountryStatusRequest,
} from './geo.schemas.js';
import { checkIp } from './service/check-ip.js';
import { countryList, currentListEtag } from './service/country-list.js';
import { setCountryStatus } from './service/set-country-status.js';

const tags = ['geo'];
/** The spec's list cache lifetime; the ETag lets a client revalidate sooner at the cost of a 304. */
const COUNTRY_LIST_CACHE_CONTROL = 'public, max-age=86400';

/** Whether an If-None-Match header names this ETag (a list, weak or strong forms, or *). */
function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  return header
    .split(',')
    .map((tag) => tag.trim().replace(/^W\//, ''))
    .some((tag) => tag === '*' || tag === etag);
}

export function geoRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.post(
      '/geo/check',
      {
        // The spec's one geo 400 code, whichever field fails.
        config: { validationErrorCode: 'invalid_ip' },
        schema: {
          tags,
          summary: "Resolve a signup's IP address to its country tier",
          // CC BY 4.0 asks for the credit wherever results are used; this document is what tenants read.
          description:
            'Live tenants cut over for geo are answered from DB-IP Lite city data by default: IP Geolocation by DB-IP (https://db-ip.com), CC BY 4.0.',
          body: GeoCheckRequest,
          response: { 200: GeoResult, ...errorResponses(400, 403, 409, 422, 503) },
        },
      },
      async (req, reply) => {
        const { result, cache } = await checkIp(platform, req.tenantContext, req.body);
        return reply.header('x-cache', cache).send(result);
      },
    );

    app.get(
      '/geo/countries',
      {
        schema: {
          tags,
          summary: 'The country tier list (tenants cannot change it)',
          response: {
            200: CountryList,
            304: Type.Null({ description: 'Not modified: the ETag still holds' }),
          },
        },
      },
      async (req, reply) => {
        reply.header('cache-control', COUNTRY_LIST_CACHE_CONTROL);
        const ifNoneMatch = req.headers['if-none-match'];
        if (ifNoneMatch) {
          const etag = await currentListEtag(platform);
          // No payload at all (a 304 has no body; the schema's null documents that).
          if (matchesEtag(ifNoneMatch, etag)) {
            return reply
              .header('etag', etag)
              .code(304)
              .send(undefined as unknown as null);
          }
        }
        const { etag, body } = await countryList(platform);
        return reply.header('etag', etag).send(body);
      },
    );
  };
}

/** The service's staff move an entry between tiers; every tenant is told by webhook. */
export function geoBackofficeRoutes(platform: Platform): FastifyPluginAsyncTypebox {
  return async (app) => {
    app.put(
      '/geo/countries/:code',
      {
        schema: {
          tags,
          summary: 'Move a country (or sub-national entry) to another tier',
          params: CountryParams,
          body: SetCountryStatusRequest,
          response: { 200: CountryListEntry, ...errorResponses(400, 404) },
        },
      },
      async (req) => {
        const { code, name, status } = await setCountryStatus(
          requestStaffContext(platform, req),
          req.params.code,
          req.body,
        );
        return { code, name, status };
      },
    );

    const database = async () => {
      const state = (await downloadStates(platform.db, [GEOIP_SOURCE_ID])).get(GEOIP_SOURCE_ID);
      const { geoipFetch, geoipDbPath } = platform.config;
      return {
        files: geoipDbPath ?? null,
        built_at: platform.vendors.geo.production?.buildDate ?? null,
        fetch: geoipFetch ? { provider: geoipFetch.provider } : null,
        download: state ? downloadReport(state) : null,
      };
    };

    app.get(
      '/geo/database',
      {
        schema: {
          tags,
          summary: 'The IP geolocation database and its download',
          response: { 200: GeoDatabase },
        },
      },
      database,
    );

    app.post(
      '/geo/database/fetch',
      {
        schema: {
          tags,
          summary: 'Download the IP geolocation database now, validate it, and use it if it passes',
          response: { 200: GeoDatabase, ...errorResponses(409) },
        },
      },
      async () => {
        if (!platform.config.geoipFetch) {
          throw new AppError('fetch_not_configured', 'GEOIP_FETCH is not set: no download is configured');
        }
        await fetchGeoDatabase(platform);
        return database();
      },
    );
  };
}

const GeoDatabase = Type.Object({
  files: Type.Union([Type.Array(Type.String()), Type.Null()], {
    description: 'GEOIP_DB_PATH; null: the DB-IP Lite files shipped in the package',
  }),
  built_at: Type.Union([Timestamp, Type.Null()], {
    description:
      "When the data this process resolves from was built; null until a live tenant's check opens it",
  }),
  fetch: Type.Union([Type.Object({ provider: Type.String() }), Type.Null()], {
    description: 'GEOIP_FETCH: who the service downloads the database from; null: it does not',
  }),
  download: Type.Union([DownloadReport, Type.Null()], { description: 'The latest download check' }),
});
