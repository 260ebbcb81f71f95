import type { Db } from '../connection';

const LIMIT = 200;

/**
 * What the « Facturation électronique » page sums up, newest first (at most 200 of each): the submissions of issued
 * documents, the flows received from the platform, the e-reporting reports written.
 */
export async function overviewRows(db: Db, organizationId: number) {
  const [sent, received, reports] = await Promise.all([
    db
      .selectFrom('einvoice_flows as f')
      .innerJoin('documents as d', 'd.id', 'f.document_id')
      .select([
        'f.document_id',
        'f.state',
        'f.flow_id',
        'f.last_error',
        'f.reasons',
        'f.updated_at',
        'd.number',
        'd.type',
        'd.customer_name',
      ])
      .where('f.organization_id', '=', organizationId)
      .where('d.organization_id', '=', organizationId)
      .orderBy('f.updated_at', 'desc')
      .limit(LIMIT)
      .execute(),
    db
      .selectFrom('einvoice_received_flows')
      .select(['flow_id', 'flow_type', 'name', 'state', 'reason', 'expense_id', 'document_id', 'received_at'])
      .where('organization_id', '=', organizationId)
      .orderBy('received_at', 'desc')
      .limit(LIMIT)
      .execute(),
    db
      .selectFrom('ereporting_reports')
      .select(['period', 'kind', 'version', 'type_code', 'state', 'ack_status', 'flow_id', 'errors', 'updated_at'])
      .where('organization_id', '=', organizationId)
      .orderBy('updated_at', 'desc')
      .limit(LIMIT)
      .execute(),
  ]);
  return { sent, received, reports };
}
