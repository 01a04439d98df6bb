/** The hosted embeds' door: what the rest of the service may use of the area. Its verbs are one a file in service/. */
import type { AreaManifest } from '../../platform/area.js';
import { embedPageRoutes } from './embeds.pages.js';
import { embedSessionRoutes, embedTokenRoutes } from './embeds.routes.js';

export const embedsArea: AreaManifest = {
  name: 'embeds',
  tenantRoutes: embedSessionRoutes,
  // The embeds' JSON endpoints take the session's token, not a bearer key.
  openRoutes: embedTokenRoutes,
  pages: embedPageRoutes,
};

export { confirmCode, liveCode, requestCode } from './service/codes.js';
export { cancelEmbedLimit, embedLimits, setEmbedLimit } from './service/limits.js';
export {
  createEmbedSession,
  embedPagePath,
  findSession,
  openSession,
  type OpenSession,
} from './service/sessions.js';
export { normaliseOrigin } from './embeds.origins.js';
export { EmbedOriginsRequest } from './embeds.schemas.js';
