import { amlArea } from './areas/aml/index.js';
import { embedsArea } from './areas/embeds/index.js';
import { exclusionsArea } from './areas/exclusions/index.js';
import { geoArea } from './areas/geo/index.js';
import { healthArea } from './areas/health/index.js';
import { kycArea } from './areas/kyc/index.js';
import { limitsArea } from './areas/limits/index.js';
import { playersArea } from './areas/players/index.js';
import { regulatorExportsArea } from './areas/regulator-exports/index.js';
import { reportsArea } from './areas/reports/index.js';
import { saferGamblingArea } from './areas/safer-gambling/index.js';
import { sanctionsArea } from './areas/sanctions/index.js';
import { timeOutsArea } from './areas/time-outs/index.js';
import type { AreaManifest } from './platform/area.js';
import type { EventSchemas } from './platform/events.js';
import { PLATFORM_PARTS } from './platform/parts.js';
import { staffArea } from './staff/index.js';

/**
 * Every part of the service with routes or work of its own, in the order the service starts them and the app
 * registers their routes: the platform's parts, the staff, then the areas. A new area adds its manifest here.
 */
export const MANIFESTS: readonly AreaManifest[] = [
  ...PLATFORM_PARTS,
  staffArea,
  healthArea,
  exclusionsArea,
  limitsArea,
  timeOutsArea,
  kycArea,
  sanctionsArea,
  geoArea,
  amlArea,
  saferGamblingArea,
  playersArea,
  embedsArea,
  regulatorExportsArea,
  reportsArea,
];

/** The catalogue of webhook events: every part's events by name (a name declared twice is a mistake, refused here). */
export const EVENT_CATALOGUE: EventSchemas = Object.fromEntries(
  MANIFESTS.flatMap((manifest) => Object.entries(manifest.events ?? {})).map(([name, schema], index, all) => {
    if (all.findIndex(([other]) => other === name) !== index) throw new Error(`event ${name} declared twice`);
    return [name, schema];
  }),
);
