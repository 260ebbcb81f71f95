import type { Selectable } from 'kysely';
import type { Db } from '../connection';
import type { EreportingReportsTable } from '../schema';

export type ReportRow = Selectable<EreportingReportsTable>;

const COLUMNS = [
  'id',
  'organization_id',
  'period',
  'kind',
  'version',
  'type_code',
  'tracking_id',
  'xml',
  'amount',
  'state',
  'flow_id',
  'ack_status',
  'errors',
  'created_at',
  'updated_at',
] as const;

/** Every report written for the periods of a year, of one kind or all, latest version last. */
export async function reportsOfYear(db: Db, params: { organizationId: number; year: number; kind?: EreportingReportsTable['kind'] }) {
  let query = db.selectFrom('ereporting_reports').select(COLUMNS).where('organization_id', '=', params.organizationId);
  if (params.kind) query = query.where('kind', '=', params.kind);
  return query.where('period', 'like', `${params.year}-%`).orderBy('period').orderBy('version').execute();
}

export async function reportsOfPeriod(db: Db, params: { organizationId: number; period: string; kind: EreportingReportsTable['kind'] }) {
  return db
    .selectFrom('ereporting_reports')
    .select(COLUMNS)
    .where('organization_id', '=', params.organizationId)
    .where('kind', '=', params.kind)
    .where('period', '=', params.period)
    .orderBy('version')
    .execute();
}

export async function insertReport(db: Db, row: Omit<ReportRow, 'id' | 'errors'> & { errors: string }): Promise<number> {
  const inserted = await db.insertInto('ereporting_reports').values(row).returning('id').executeTakeFirstOrThrow();
  return inserted.id;
}

export async function updateReport(
  db: Db,
  params: { id: number; state: ReportRow['state']; flowId: string | null; ackStatus: string | null; errors: string[]; now: string },
): Promise<void> {
  await db
    .updateTable('ereporting_reports')
    .set({
      state: params.state,
      flow_id: params.flowId,
      ack_status: params.ackStatus,
      errors: JSON.stringify(params.errors),
      updated_at: params.now,
    })
    .where('id', '=', params.id)
    .execute();
}

/**
 * The report a platform flow answers for: by its flow id, else by the trackingId it was submitted with (a submission
 * whose answer was lost keeps no flow id). Undefined when the flow is none of the organisation's reports.
 */
export async function findReportOfFlow(db: Db, params: { organizationId: number; flowId: string; trackingId: string | null }) {
  const byFlow = await db
    .selectFrom('ereporting_reports')
    .select(COLUMNS)
    .where('organization_id', '=', params.organizationId)
    .where('flow_id', '=', params.flowId)
    .executeTakeFirst();
  if (byFlow || !params.trackingId) return byFlow;
  return db
    .selectFrom('ereporting_reports')
    .select(COLUMNS)
    .where('organization_id', '=', params.organizationId)
    .where('tracking_id', '=', params.trackingId)
    .executeTakeFirst();
}

/**
 * The expenses dated in a period whose supplier may be established outside France, with what the e-reporting of
 * purchases reads: the account of their category (goods or services), and for a supplier's credit note the date of
 * the invoice it corrects. Amounts as stored (INTEGER units of 10^-4).
 */
export async function purchaseExpensesOfPeriod(db: Db, params: { organizationId: number; from: string; to: string }) {
  return (
    db
      .selectFrom('expenses as e')
      .leftJoin('expense_categories as c', (join) =>
        join.onRef('c.organization_id', '=', 'e.organization_id').onRef('c.code', '=', 'e.category'),
      )
      .leftJoin('expenses as corrected', (join) =>
        join.onRef('corrected.id', '=', 'e.corrects_id').onRef('corrected.organization_id', '=', 'e.organization_id'),
      )
      .select([
        'e.id',
        'e.kind',
        'e.date',
        'e.supplier',
        'e.invoice_number',
        'e.supplier_country',
        'e.supplier_vat_number',
        'e.currency',
        'e.source',
        'e.reverse_charge',
        'e.amount',
        'e.vat',
        'e.preceding_invoice_number',
        'corrected.date as corrected_date',
        'c.account',
      ])
      .where('e.organization_id', '=', params.organizationId)
      .where('e.date', '>=', params.from)
      .where('e.date', '<=', params.to)
      // A supplier in France or of unknown country without self-assessed VAT is domestic: not read at all.
      .where((eb) =>
        eb.or([
          eb('e.supplier_country', 'not in', ['', 'FR', 'MC']),
          eb('e.supplier_vat_number', '!=', ''),
          eb('e.reverse_charge', '!=', ''),
        ]),
      )
      .orderBy('e.date')
      .orderBy('e.id')
      .execute()
  );
}
