import type { Db } from '../connection';
import { sql } from 'kysely';
import { nowIso } from '../../clock';

export async function insertFeedback(
  db: Db,
  params: { organizationId: number; userId: number; message: string; screenshot: string | null },
): Promise<number> {
  const row = await db
    .insertInto('feedback')
    .values({
      organization_id: params.organizationId,
      user_id: params.userId,
      message: params.message,
      screenshot: params.screenshot,
      created_at: nowIso(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Characters of screenshots (base64 data URLs) an organisation sent since `since`: its day's storage. */
export async function screenshotCharsSince(db: Db, params: { organizationId: number; since: string }): Promise<number> {
  const row = await db
    .selectFrom('feedback')
    .select(sql<number>`coalesce(sum(length(screenshot)), 0)`.as('chars'))
    .where('organization_id', '=', params.organizationId)
    .where('created_at', '>=', params.since)
    .executeTakeFirst();
  return Number(row?.chars ?? 0);
}
