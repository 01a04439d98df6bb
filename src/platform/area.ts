import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Logger } from 'pino';
import type { Clock } from './clock.js';
import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { Platform } from './context.js';
import type { DB } from './db/schema.js';
import type { EventSchemas } from './events.js';
import type { GroupCommits } from './group-commit.js';
import type { VendorImplementations } from './vendors.js';

/** Routes of one kind, built over the platform; registered by the app in the manifests' order. */
export type Routes = (platform: Platform) => FastifyPluginAsyncTypebox;

/** What an area opens when the service starts and closes when it stops (last opened, first closed). */
export type Close = () => void | Promise<void>;

/** What an area's vendors are built from: the platform's parts that exist before the platform does. */
export interface VendorSetup {
  config: Config;
  clock: Clock;
  log: Logger;
}

/**
 * What an area (or a platform part with routes or work of its own) gives the service: the composition root
 * (`service.ts`), the app (`app.ts`) and the back office loop over these instead of naming each area's pieces.
 */
export interface AreaManifest {
  /** The folder's name; for a vendor-backed area, also its key in `platform.vendors`. */
  name: string;
  /** The webhook events it emits, each with the schema of its data: the catalogue (events.ts), published in OpenAPI. */
  events?: EventSchemas;
  /** Under `/v1`, behind the tenant's bearer key and its rate limits. */
  tenantRoutes?: Routes;
  /** Under `/v1` without a bearer key: each route authenticates by its own means, or is public (`security: []`). */
  openRoutes?: Routes;
  /** Under `/backoffice/v1`, behind the back-office token or a staff session with a role. */
  backofficeRoutes?: Routes;
  /** At the root, outside the API: pages a player's browser opens. */
  pages?: Routes;
  /** The sandbox stub and, when this deployment has one, the production implementation of the area's vendor. */
  // A method, so that each area's signature keeps its own vendor type.
  vendors?(
    setup: VendorSetup,
    override: Partial<VendorImplementations<unknown>>,
  ): VendorImplementations<unknown>;
  /** Its group commits (one statement for concurrent requests), built once when the service is wired. */
  groupCommits?(db: Kysely<DB>, config: Config): Partial<GroupCommits>;
  /** Registers its scheduled jobs and queue pollers, and opens what a live tenant needs at start. */
  start?: (platform: Platform) => Promise<Close | void> | Close | void;
}
