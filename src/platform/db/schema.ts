import type { EmbedTables } from '../../areas/embeds/embeds.tables.js';
import type { AmlTables } from '../../areas/aml/aml.tables.js';
import type { ExclusionTables } from '../../areas/exclusions/exclusions.tables.js';
import type { RegulatorExportTables } from '../../areas/regulator-exports/regulator-exports.tables.js';
import type { ReportTables } from '../../areas/reports/reports.tables.js';
import type { GeoTables } from '../../areas/geo/geo.tables.js';
import type { KycTables } from '../../areas/kyc/kyc.tables.js';
import type { LimitTables } from '../../areas/limits/limits.tables.js';
import type { PlayerTables } from '../../areas/players/players.tables.js';
import type {
  SaferGamblingTables,
  SaferGamblingViews,
} from '../../areas/safer-gambling/safer-gambling.tables.js';
import type { SanctionsTables } from '../../areas/sanctions/sanctions.tables.js';
import type { TimeOutTables } from '../../areas/time-outs/time-outs.tables.js';
import type { FxTables } from '../fx.tables.js';
import type { StaffTables } from '../../staff/staff.tables.js';
import type { FourEyesTables } from '../four-eyes.store.js';
import type { CaseWorkTables } from '../case-work/assignment.store.js';
import type { PlatformTables } from './platform-tables.js';
import type { RetentionTables } from '../retention.store.js';

/** Every table the service owns: the platform's plus one interface per business area. */
export type Tables = PlatformTables &
  ExclusionTables &
  LimitTables &
  TimeOutTables &
  SaferGamblingTables &
  PlayerTables &
  SanctionsTables &
  GeoTables &
  AmlTables &
  KycTables &
  FxTables &
  StaffTables &
  FourEyesTables &
  CaseWorkTables &
  EmbedTables &
  RegulatorExportTables &
  ReportTables &
  RetentionTables;

/** What queries read and write: the tables, and the views over them (which hold no data of their own). */
export type DB = Tables & SaferGamblingViews;
