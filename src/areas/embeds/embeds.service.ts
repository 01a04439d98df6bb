/** The service verbs of the hosted embeds, one concern a file in service/: the routes and pages reach them here. */
export { confirmCode, requestCode } from './service/codes.js';
export { cancelEmbedLimit, embedLimits, setEmbedLimit } from './service/limits.js';
export { createEmbedSession, openSession, type OpenSession } from './service/sessions.js';
