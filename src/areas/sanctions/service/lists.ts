import type { Platform } from '../../../platform/context.js';
import { downloadStates } from '../../../platform/downloads.js';
import { AppError } from '../../../platform/errors.js';
import { fetchSanctionsLists, listSourceId } from '../lists/fetch.js';
import { listsStatus } from '../lists/status.js';
import { lastChanges } from './list-versions.js';

/** Staff verbs on the sanctions lists this process serves: the view, the reload and the download. */

async function status(platform: Platform) {
  const sourceIds = platform.config.sanctionsSources.map((source) => listSourceId(source.list));
  return listsStatus(
    platform.vendors.sanctions.lists,
    platform.config,
    await downloadStates(platform.db, sourceIds),
    await lastChanges(platform.db),
    platform.clock.now(),
  );
}

/** The lists in force. Asking means the deployment uses the lists: they load here too (a failure shows in the view). */
export async function listsInForce(platform: Platform) {
  await platform.vendors.sanctions.lists?.open().catch(() => {});
  return status(platform);
}

/** Re-reads the lists directory now; 409 when no directory is configured. */
export async function reloadLists(platform: Platform) {
  const holder = platform.vendors.sanctions.lists;
  if (!holder) {
    throw new AppError(
      'vendor_not_configured',
      'SANCTIONS_DATA_DIR is not set: there are no lists to reload',
    );
  }
  await holder.reload();
  return status(platform);
}

/** Downloads every configured list now (as the scheduled download does); 409 when there is no directory. */
export async function fetchLists(platform: Platform) {
  if (!platform.config.sanctionsDataDir) {
    throw new AppError(
      'fetch_not_configured',
      'SANCTIONS_DATA_DIR is not set: there is no directory to download the lists into',
    );
  }
  const downloads = await fetchSanctionsLists(platform, platform.vendors.sanctions.lists);
  // As for the lists view: asking means the deployment uses the lists.
  await platform.vendors.sanctions.lists?.open().catch(() => {});
  return { downloads, lists: await status(platform) };
}
