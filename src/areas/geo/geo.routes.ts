import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Platform } from '../../platform/context.js';
import { errorResponses } from '../../platform/schemas.js';
import {
  CountryList,
  CountryListEntry,
  CountryParams,
  GeoCheckRequest,
  GeoResult,
  SetCountryStatusRequest,
} from './geo.schemas.js';
import { checkIp, countryList, currentListEtag, setCountryStatus } from './geo.service.js';

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
          response: { 200: GeoResult, ...errorResponses(400, 403, 422, 503) },
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
          if (matchesEtag(ifNoneMatch, etag)) return reply.header('etag', etag).code(304).send(null);
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
        const { code, name, status } = await setCountryStatus(platform, req.params.code, req.body, req.id);
        return { code, name, status };
      },
    );
  };
}
