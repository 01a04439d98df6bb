import type { Static } from 'typebox';
import type { DownloadReport } from '../../platform/schemas.js';
import { command, download, get, post, type Command } from '../command.js';

type GeoDatabase = { download: Static<typeof DownloadReport> | null; files: string[] | null };

export const GEO_COMMANDS: Record<string, Command> = {
  'geoip show': command(
    'geoip show',
    () => get('/geo/database'),
    (g: GeoDatabase) =>
      `${g.files?.join(', ') ?? 'DB-IP Lite (shipped)'}\n${g.download ? download(g.download) : 'Not downloaded by the service.'}`,
  ),
  'geoip fetch': command(
    'geoip fetch',
    () => post('/geo/database/fetch'),
    (g: GeoDatabase) => (g.download ? download(g.download) : 'Nothing was downloaded.'),
  ),
};
