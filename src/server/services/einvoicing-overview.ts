import type { Db } from '../db/connection';
import { overviewRows } from '../db/queries/einvoicing-overview';
import { FLOW_STATES, type FlowState } from '../../shared/einvoice-flows';
import { EREPORTING_KIND_LABELS } from '../../shared/ereporting';
import { isReportFlow } from '../einvoice/afnor/incoming';
import { RECEIVED_PROBLEMS, RECEIVED_STATES, type ReceivedState } from '../../shared/schemas/einvoice-inbox';
import { OVERVIEW_GROUPS, type OverviewGroup, type OverviewRow } from '../../shared/schemas/einvoicing-overview';

const SENT_GROUP: Record<FlowState, OverviewGroup> = {
  pending: 'waiting',
  submitted: 'waiting',
  acknowledged: 'accepted',
  error: 'rejected',
  to_resend: 'needs_user',
};

const errorsText = (json: string) => {
  try {
    const list = JSON.parse(json) as unknown[];
    return list
      .map((e) => (typeof e === 'string' ? e : ((e as { reasonCode?: string }).reasonCode ?? '')))
      .filter(Boolean)
      .join(' ; ');
  } catch {
    return '';
  }
};

/** GET /api/einvoicing/overview: every flow of the organisation in its group, newest first, each naming what it is about. */
export async function einvoicingOverview(db: Db, organizationId: number) {
  const { sent, received, reports } = await overviewRows(db, organizationId);
  const rows: OverviewRow[] = [];
  for (const f of sent) {
    const state = f.state as FlowState;
    rows.push({
      group: SENT_GROUP[state] ?? 'waiting',
      target: { kind: 'document', id: f.document_id, type: f.type === 'credit' ? 'credit' : 'invoice' },
      title: `${f.type === 'credit' ? 'Avoir' : 'Facture'} ${f.number ?? ''} · ${f.customer_name}`,
      state: FLOW_STATES[state] ?? f.state,
      detail: [f.flow_id ? `flux ${f.flow_id}` : '', f.last_error, errorsText(f.reasons)].filter(Boolean).join(' · '),
      date: f.updated_at,
    });
  }
  for (const r of received) {
    const state = r.state as ReceivedState;
    rows.push({
      group: RECEIVED_PROBLEMS.includes(state) ? 'needs_user' : 'received',
      target:
        r.expense_id !== null
          ? { kind: 'expense', id: r.expense_id }
          : r.document_id !== null
            ? { kind: 'document', id: r.document_id, type: 'invoice' }
            : { kind: 'none' },
      title:
        r.flow_type === 'SupplierInvoice'
          ? `Facture fournisseur ${r.name}`
          : isReportFlow({ flowDirection: 'Out', flowType: r.flow_type })
            ? `Statut de déclaration e-reporting ${r.name}`
            : `Statut reçu ${r.name}`,
      state: RECEIVED_STATES[state] ?? r.state,
      detail: [`flux ${r.flow_id}`, r.reason].filter(Boolean).join(' · '),
      date: r.received_at,
    });
  }
  // The last version of each period tells where its report stands.
  const seen = new Set<string>();
  for (const r of reports) {
    const key = `${r.period} ${r.kind}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const group: OverviewGroup =
      r.state !== 'sent' || r.ack_status === 'Error' ? 'needs_user' : r.ack_status === 'Ok' ? 'reported' : 'waiting';
    rows.push({
      group,
      target: { kind: 'ereporting', period: r.period },
      // The B2C sales' report is named by its period alone (the first kind there was), the others by their kind too.
      title: `E-reporting ${r.period}${r.kind === 'transactions' ? '' : ` · ${EREPORTING_KIND_LABELS[r.kind]}`}${r.type_code === 'RE' ? ` (rectificative n° ${r.version})` : ''}`,
      state:
        r.state === 'invalid'
          ? 'Non conforme (non envoyée)'
          : r.state === 'failed'
            ? 'Échec de l’envoi'
            : r.ack_status === 'Error'
              ? 'Rejetée'
              : r.ack_status === 'Ok'
                ? 'Acceptée'
                : 'Déposée, en attente de la plateforme',
      detail: [r.flow_id ? `flux ${r.flow_id}` : '', errorsText(r.errors)].filter(Boolean).join(' · '),
      date: r.updated_at,
    });
  }
  rows.sort((a, b) => b.date.localeCompare(a.date));
  const counts = Object.fromEntries(OVERVIEW_GROUPS.map((g) => [g, rows.filter((r) => r.group === g).length])) as Record<
    OverviewGroup,
    number
  >;
  return { counts, data: rows };
}
