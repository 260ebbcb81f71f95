import type { Db } from '../db/connection';
import type { Env } from '../env';
import { AppError } from '../errors';
import { AfnorClient } from '../einvoice/afnor/client';
import { AfnorError } from '../einvoice/afnor/errors';
import { afnorConnectionOf } from './einvoicing-settings';
import { logger } from '../logger';

/**
 * « Tester la connexion »: both healthchecks, side by side. 200 when both answer; otherwise a 502 whose messages
 * name each service that failed and why (the token server's refusal is named as such).
 */
export async function checkEinvoicingConnection(
  deps: { db: Db; env: Env },
  organizationId: number,
): Promise<{ flow: 'ok'; directory: 'ok' }> {
  const client = new AfnorClient(await afnorConnectionOf(deps, organizationId));
  const results = await Promise.allSettled([client.healthcheck('flow'), client.healthcheck('directory')]);
  const messages: string[] = [];
  for (const result of results) {
    if (result.status === 'fulfilled') continue;
    if (!(result.reason instanceof AfnorError)) throw result.reason;
    if (!messages.includes(result.reason.message)) messages.push(result.reason.message);
  }
  if (messages.length > 0) {
    logger.info({ event: 'einvoicing_check_failed', organization: organizationId, messages });
    throw new AppError('BAD_GATEWAY', messages);
  }
  return { flow: 'ok', directory: 'ok' };
}
