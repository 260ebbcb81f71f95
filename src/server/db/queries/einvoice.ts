import type { Db } from '../connection';

/** A lifecycle entry as stored (migration 0019); `status` and `source` are checked where they are mapped. */
export async function listLifecycleRows(db: Db, params: { organizationId: number; documentId: number }) {
  return db
    .selectFrom('einvoice_statuses')
    .select(['id', 'status', 'code', 'date', 'reason', 'source', 'amount', 'platform_update_id', 'created_at'])
    .where('organization_id', '=', params.organizationId)
    .where('document_id', '=', params.documentId)
    .orderBy('id')
    .execute();
}
export type LifecycleRow = Awaited<ReturnType<typeof listLifecycleRows>>[number];

export interface LifecycleValues {
  status: string;
  code: number | null;
  date: string;
  reason: string;
  source: string;
  amount: number | null;
  platform_update_id: string | null;
  user_id: number | null;
  created_at: string;
}

export async function insertLifecycleRow(
  db: Db,
  params: { organizationId: number; documentId: number; values: LifecycleValues },
): Promise<number> {
  const row = await db
    .insertInto('einvoice_statuses')
    .values({ organization_id: params.organizationId, document_id: params.documentId, ...params.values })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Whether the platform's update was already recorded (polling sees the same update again). */
export async function hasPlatformUpdate(db: Db, params: { organizationId: number; updateId: string }): Promise<boolean> {
  const row = await db
    .selectFrom('einvoice_statuses')
    .select('id')
    .where('organization_id', '=', params.organizationId)
    .where('platform_update_id', '=', params.updateId)
    .executeTakeFirst();
  return row !== undefined;
}

const submissionColumns = ['document_id', 'platform', 'reference', 'format', 'xml_attached', 'sent_at'] as const;

export async function findSubmission(db: Db, params: { organizationId: number; documentId: number }) {
  return db
    .selectFrom('einvoice_submissions')
    .select(submissionColumns)
    .where('organization_id', '=', params.organizationId)
    .where('document_id', '=', params.documentId)
    .executeTakeFirst();
}
export type SubmissionRow = NonNullable<Awaited<ReturnType<typeof findSubmission>>>;

/** Every transmission of an organisation, for polling their statuses. */
export async function listSubmissions(db: Db, params: { organizationId: number }) {
  return db
    .selectFrom('einvoice_submissions')
    .select(submissionColumns)
    .where('organization_id', '=', params.organizationId)
    .orderBy('id')
    .execute();
}

/** The organisations that transmitted something: the ones a poll visits. */
export async function listSubmittingOrganizations(db: Db): Promise<number[]> {
  const rows = await db.selectFrom('einvoice_submissions').select('organization_id').distinct().execute();
  return rows.map((r) => r.organization_id);
}

/** Records the transmission once: false when one was recorded first (by a concurrent request). */
export async function insertSubmission(
  db: Db,
  params: { organizationId: number; documentId: number; values: Omit<SubmissionRow, 'document_id'> },
): Promise<boolean> {
  const result = await db
    .insertInto('einvoice_submissions')
    .values({ organization_id: params.organizationId, document_id: params.documentId, ...params.values })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
}

/** The date of the last payment standing on a document (counter-entries and the payments they cancel excluded): when it became cashed. */
export async function lastPaymentDate(db: Db, params: { organizationId: number; documentId: number }): Promise<string | undefined> {
  const row = await db
    .selectFrom('payments')
    .select((eb) => eb.fn.max('date').as('date'))
    .where('organization_id', '=', params.organizationId)
    .where('document_id', '=', params.documentId)
    // Neither a counter-entry nor a payment it cancelled: only the payments that stand settle the invoice.
    .where('reverses_id', 'is', null)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('payments as r').select('r.id').whereRef('r.reverses_id', '=', 'payments.id'))),
    )
    .executeTakeFirst();
  return row?.date ?? undefined;
}
