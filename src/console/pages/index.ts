import type { FastifyInstance } from 'fastify';
import type { Platform } from '../../platform/context.js';
import { amlCasePages } from './aml-case.js';
import { approvalPages } from './approvals.js';
import { auditPages } from './audit.js';
import { countryPages } from './countries.js';
import { dashboardPages } from './dashboard.js';
import { dataRequestPages } from './data-requests.js';
import { exclusionPages } from './exclusion.js';
import { kycCasePages } from './kyc-case.js';
import { playerPages } from './player.js';
import { queuePages } from './queues.js';
import { regulatorPages } from './regulator.js';
import { regulatorExportPages } from './regulator-exports.js';
import { reportPages } from './reports.js';
import { saferGamblingPages } from './player-safer-gambling.js';
import { sanctionsCasePages } from './sanctions-case.js';
import { sanctionsDismissalPages } from './sanctions-dismissals.js';
import { sanctionsListPages } from './sanctions-lists.js';
import { signInPages } from './sign-in.js';
import { staffPages } from './staff.js';
import { tenantPages } from './tenants.js';

/** Every console page, by what it is for. */
export async function registerConsolePages(app: FastifyInstance, platform: Platform): Promise<void> {
  signInPages(app, platform);
  dashboardPages(app, platform);
  queuePages(app, platform);
  sanctionsListPages(app, platform);
  sanctionsCasePages(app, platform);
  sanctionsDismissalPages(app, platform);
  amlCasePages(app, platform);
  kycCasePages(app, platform);
  approvalPages(app, platform);
  playerPages(app, platform);
  saferGamblingPages(app, platform);
  exclusionPages(app, platform);
  tenantPages(app, platform);
  countryPages(app, platform);
  regulatorPages(app, platform);
  staffPages(app, platform);
  auditPages(app, platform);
  dataRequestPages(app, platform);
  reportPages(app, platform);
  regulatorExportPages(app, platform);
}
