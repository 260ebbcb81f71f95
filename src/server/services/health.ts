import { sql } from 'kysely';
import type { Db } from '../db/connection';
import { fail } from '../errors';
import { logger } from '../logger';

/** A round trip to the database: a 503 when it does not answer, so that a load balancer takes this process out. */
export async function checkDatabase(db: Db): Promise<void> {
  try {
    await sql`select 1`.execute(db);
  } catch (error) {
    logger.error('health check: database unreachable', error);
    fail('SERVICE_UNAVAILABLE', 'Base de données injoignable');
  }
}
