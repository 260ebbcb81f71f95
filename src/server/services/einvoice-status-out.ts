import crypto from 'node:crypto';
import type { Db } from '../db/connection';
import { nowIso } from '../clock';
import { fail } from '../errors';
import { normalizeSiren } from '../../shared/identifiers';
import { add, toDecimalString } from '../../shared/money';
import { FLOW_STATES, type FlowState } from '../../shared/einvoice-flows';
import {
  BUYER_STATUS_KEYS,
  BUYER_STATUSES,
  type BuyerStatus,
  buyerStatusConflict,
  STATUS_REASONS,
} from '../../shared/einvoice-status-reasons';
import { type ExpenseLifecycle, type ExpenseLifecycleInput, reasonLabel } from '../../shared/schemas/expense-lifecycle';
import type { StoredDocument } from '../../shared/schemas/document-model';
import { findFlowOfExpense } from '../db/queries/einvoice-inbox';
import { findFlowOfDocument } from '../db/queries/einvoice-flows';
import { insertStatusFlow, listStatusFlowsOfExpense } from '../db/queries/einvoice-status-flows';
import { writeCdar } from '../einvoice/cdar';
import { getEinvoicingSettings } from './einvoicing-settings';
import { flowRecipientProblem } from './einvoice-transmit';
import type { FlowOutbox } from './einvoice-outbox';
import { getExpense } from './expenses';
import { getOrganizationProfile } from './organization';

/**
 * Lifecycle messages Facturier sends (CDAR D22B through the platform's Flow Service, services/einvoice-outbox.ts):
 * the buyer's word on a supplier invoice received from the platform (Approuvée 205, En litige 207, Refusée 210), and
 * the seller's « Encaissée » (212) once its own services invoice is paid, VAT being due on receipt. Each message is
 * written once, queued in the transaction of what caused it, and sent by the outbox with its retries.
 */

const siren = (value: string | null | undefined) => normalizeSiren(value ?? '').slice(0, 9);
const isSiren = (value: string) => /^\d{9}$/.test(value);
const fileName = (code: number, number: string) => `statut-${code}-${number}`.replace(/[^\w.-]+/g, '_').slice(0, 200);
const isState = (s: string): s is FlowState => s in FLOW_STATES;
const statusOfCode = (code: number) => BUYER_STATUS_KEYS.find((key) => BUYER_STATUSES[key].code === code);

/** The statuses sent about a supplier invoice, and whether it may take one (received from the platform). */
export async function getExpenseLifecycle(db: Db, organizationId: number, expenseId: number): Promise<ExpenseLifecycle> {
  await getExpense(db, organizationId, expenseId);
  const [received, rows] = await Promise.all([
    findFlowOfExpense(db, { organizationId, expenseId }),
    listStatusFlowsOfExpense(db, { organizationId, expenseId }),
  ]);
  const statuses = rows.flatMap((row) => {
    const status = statusOfCode(row.status_code);
    if (!status) return [];
    const state = isState(row.state) ? row.state : 'pending';
    return [
      {
        status,
        code: row.status_code,
        label: BUYER_STATUSES[status].label,
        reason_code: row.reason_code,
        reason_label: row.reason_code ? reasonLabel(row.reason_code) : '',
        state,
        state_label: FLOW_STATES[state],
        flow_id: row.flow_id,
        error: row.last_error,
        created_at: row.created_at,
      },
    ];
  });
  return { available: received !== undefined, statuses };
}

/**
 * « Approuver », « Refuser » (with a reason from the reform's list) or « Contester » a supplier invoice received from
 * the platform: the message is written and queued, then sent at once. The same status twice answers the first.
 */
export async function sendExpenseStatus(
  deps: { db: Db; outbox: FlowOutbox },
  organizationId: number,
  expenseId: number,
  input: ExpenseLifecycleInput,
): Promise<{ messages: string; data: ExpenseLifecycle }> {
  const { db } = deps;
  const expense = await getExpense(db, organizationId, expenseId);
  const before = await getExpenseLifecycle(db, organizationId, expenseId);
  if (!before.available)
    fail('CONFLICT', 'Cette dépense n’a pas été reçue de la plateforme agréée : son statut se règle directement avec le fournisseur');
  const { code, label } = BUYER_STATUSES[input.status];
  const already = before.statuses.find((s) => s.status === input.status);
  if (already) return { messages: `Statut « ${label} » déjà transmis au fournisseur`, data: before };
  const conflict = buyerStatusConflict(
    before.statuses.map((s) => s.status),
    input.status,
  );
  if (conflict) fail('CONFLICT', conflict);
  const supplierSiren = siren(expense.supplier_siren);
  if (!isSiren(supplierSiren))
    fail('CONFLICT', 'Le SIREN du fournisseur manque sur cette facture : la plateforme ne peut pas lui adresser le statut');
  const organization = await getOrganizationProfile(db, organizationId);
  const ownSiren = siren(organization.siret);
  if (!isSiren(ownSiren)) fail('CONFLICT', 'Votre SIREN manque : renseignez-le dans Paramètres → Entreprise');

  const at = new Date();
  const reasonCode = input.status === 'approved' ? '' : (input.reason ?? '');
  const xml = writeCdar({
    id: `${expense.invoice_number}_${code}_${at.getTime()}`,
    name: fileName(code, expense.invoice_number),
    at,
    issuer: { siren: ownSiren, name: organization.name, role: 'BY' },
    recipient: { siren: supplierSiren, name: expense.supplier, role: 'SE', address: supplierSiren },
    toTaxAuthority: false,
    invoice: {
      number: expense.invoice_number,
      date: expense.date,
      typeCode: expense.kind === 'credit_note' ? 381 : 380,
      sellerSiren: supplierSiren,
    },
    status: {
      code,
      label,
      reasonCode: reasonCode || undefined,
      reason: reasonCode ? (STATUS_REASONS as Record<string, string>)[reasonCode] : undefined,
    },
  });
  const now = nowIso();
  const trackingId = crypto.randomUUID();
  const queued = await insertStatusFlow(db, {
    organization_id: organizationId,
    tracking_id: trackingId,
    expense_id: expenseId,
    status_code: code,
    reason_code: reasonCode,
    name: `${fileName(code, expense.invoice_number)}.xml`,
    xml,
    state: 'pending',
    next_attempt_at: now,
    created_at: now,
    updated_at: now,
  });
  if (queued) {
    const row = await db.selectFrom('einvoice_status_flows').select('id').where('tracking_id', '=', trackingId).executeTakeFirst();
    if (row) await deps.outbox.attemptNow(row.id, 'einvoice_status_flows');
  }
  const data = await getExpenseLifecycle(db, organizationId, expenseId);
  const sent = data.statuses.find((s) => s.status === input.status);
  const where =
    sent?.state === 'acknowledged' || sent?.state === 'submitted'
      ? 'transmis à la plateforme agréée'
      : `en attente d’envoi${sent?.error ? ` (${sent.error})` : ''}`;
  return { messages: `Statut « ${label} » ${where}`, data };
}

/** The amount received per VAT rate, as « Encaissée » states it (BR-FR-CDV-14): each rate's base and tax. */
function cashedLines(invoice: StoredDocument): { amount: string; rate: string }[] {
  const lines = invoice.totals.taxes.map((tax) => ({
    amount: toDecimalString(add(tax.taxable_amount, tax.amount), 2),
    rate: toDecimalString(tax.rate, 2),
  }));
  return lines.length > 0 ? lines : [{ amount: toDecimalString(invoice.totals.total, 2), rate: '0.00' }];
}

/**
 * In the transaction that recorded an automatic « Encaissée » (services/einvoice-lifecycle.ts): queues its 212 for
 * an invoice the platform carried (submitted through its API), once per entry of the history. True when queued.
 */
export async function queueCashedMessage(db: Db, invoice: StoredDocument, entryId: number, date: string): Promise<boolean> {
  const organizationId = invoice.organization_id;
  if ((await getEinvoicingSettings(db, organizationId)).mode !== 'afnor') return false;
  if (flowRecipientProblem(invoice) !== null) return false;
  if (!(await findFlowOfDocument(db, { organizationId, documentId: invoice.id }))) return false;
  const seller = siren(invoice.seller?.siret);
  const buyer = siren(invoice.customer?.business_id);
  const number = invoice.number ?? String(invoice.id);
  const at = new Date();
  const xml = writeCdar({
    id: `${number}_212_${at.getTime()}`,
    name: fileName(212, number),
    at,
    issuer: { siren: seller, name: invoice.seller?.name ?? '', role: 'SE' },
    recipient: {
      siren: buyer,
      name: invoice.customer?.legal_name || invoice.customer?.name || '',
      role: 'BY',
      address: buyer,
    },
    toTaxAuthority: true,
    invoice: { number, date: invoice.date, typeCode: 380, sellerSiren: seller },
    status: { code: 212, label: 'Encaissée' },
    cashed: { currency: invoice.currency, lines: cashedLines(invoice) },
  });
  const now = nowIso();
  return insertStatusFlow(db, {
    organization_id: organizationId,
    tracking_id: crypto.randomUUID(),
    document_id: invoice.id,
    status_entry_id: entryId,
    status_code: 212,
    name: `${fileName(212, number)}-${date}.xml`,
    xml,
    state: 'pending',
    next_attempt_at: now,
    created_at: now,
    updated_at: now,
  });
}

export type { BuyerStatus };
