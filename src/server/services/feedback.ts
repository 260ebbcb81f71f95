import type { Db } from '../db/connection';
import type { FeedbackInput } from '../../shared/schemas/feedback';
import { insertFeedback } from '../db/queries/feedback';

export async function recordFeedback(db: Db, params: { organizationId: number; userId: number; input: FeedbackInput }): Promise<number> {
  return insertFeedback(db, {
    organizationId: params.organizationId,
    userId: params.userId,
    message: params.input.message,
    screenshot: params.input.screenshot,
  });
}
