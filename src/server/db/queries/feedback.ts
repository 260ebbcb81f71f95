import type { Db } from '../connection';
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
