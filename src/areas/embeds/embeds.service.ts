/** The service verbs of the hosted embeds, one concern a file in service/: the routes and pages reach them here. */
export { confirmCode, liveCode, requestCode } from './service/codes.js';
export { cancelEmbedLimit, embedLimits, setEmbedLimit } from './service/limits.js';
export {
  createEmbedSession,
  embedPagePath,
  findSession,
  openSession,
  type OpenSession,
} from './service/sessions.js';
