// Opening a dashboard address in the browser where one can start (not under CI, SSH, or without a display).
import { type Env, type IO, noBrowserReason } from '../../core/index.js';
import { errorMessage } from '../../util/text.js';

/** Else says `why` not, or the `error` that stopped the browser. Only a web address is handed to an opener
 * (it comes from the service), which would run a file or another scheme's handler as readily. */
export async function openInBrowser(
  io: Pick<IO, 'spawner' | 'runtime'> & { env: Env },
  url: string,
): Promise<{ opened: boolean; why?: string; error?: string }> {
  const why = !/^https?:\/\/[^\s]+$/i.test(url)
    ? 'not a web address'
    : (noBrowserReason(io.env, io.runtime.platform) ?? (io.spawner ? undefined : 'no browser'));
  if (why !== undefined || !io.spawner) return { opened: false, why };
  try {
    await io.spawner.browser(url);
    return { opened: true };
  } catch (err) {
    return { opened: false, error: errorMessage(err) };
  }
}
