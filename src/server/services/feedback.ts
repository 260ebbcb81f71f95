import type { Db } from '../db/connection';
import type { FeedbackInput } from '../../shared/schemas/feedback';
import { insertFeedback, screenshotCharsSince } from '../db/queries/feedback';
import { clock } from '../clock';
import { fail } from '../errors';

/**
 * Screenshots an organisation may store in 24 hours (ten 8 MB screenshots went in within 1.6 s). Far above
 * what people reporting problems send; a message without a screenshot is always accepted.
 */
export const SCREENSHOT_CHARS_PER_DAY = 60 * 1024 * 1024;

export async function recordFeedback(db: Db, params: { organizationId: number; userId: number; input: FeedbackInput }): Promise<number> {
  const screenshot = params.input.screenshot;
  if (screenshot) {
    const since = new Date(clock.now().getTime() - 24 * 3600_000).toISOString();
    const used = await screenshotCharsSince(db, { organizationId: params.organizationId, since });
    if (used + screenshot.length > SCREENSHOT_CHARS_PER_DAY)
      fail('TOO_MANY_REQUESTS', 'Capture d’écran : le quota du jour est atteint ; envoyez votre message sans capture, ou réessayez demain');
  }
  return insertFeedback(db, {
    organizationId: params.organizationId,
    userId: params.userId,
    message: params.input.message,
    screenshot,
  });
}
