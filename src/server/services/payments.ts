import type { Db } from '../db/connection';
import { kickFlowOutboxes } from './einvoice-outbox';
import { futurePaymentProblem, type Payment } from '../../shared/schemas/payment';
import { PAYABLE_STATUSES } from '../../shared/document-status';
import { DOCUMENT_TYPE_TABLE } from '../../shared/document-types';
import { INPUT_SCALE, pow10, toUnits4, unitsToNumber } from '../../shared/money';
import type { StoredDocument } from '../../shared/schemas/document-model';
import { formatDateShort, formatMoney } from '../../shared/format';
import { fail } from '../errors';
import { findPayment, insertPayment, listPayments, sumPayments, type PaymentRow } from '../db/queries/payments';
import { sumAllocatedToInvoice } from '../db/queries/credit-allocations';
import { fromStoredUnits, toStoredUnits } from '../../shared/money';
import { getStoredDocument } from './documents';
import { refreshInvoiceBalance } from './document-lifecycle';
import { getAppSettings } from './settings';
import { currencyPrecision } from '../../shared/currencies';
import { appendAudit } from './audit';
import { parisToday } from '../../shared/paris-date';
import { clock } from '../clock';
import { emitEvent } from './webhooks';
import { plural } from '../../shared/french';
import { lockRow } from '../db/dialect';

/** What a payment processor kept on a payment (a card payment's Stripe fee), in stored units of `fee_currency`. */
export interface ProcessorFee {
  fee?: number;
  fee_currency?: string | null;
}

const paymentOf = (p: PaymentRow) => ({ ...p, amount: fromStoredUnits(p.amount), fee: fromStoredUnits(p.fee) });
export type PaymentRecord = ReturnType<typeof paymentOf>;

async function payableInvoice(db: Db, organizationId: number, documentId: number): Promise<StoredDocument> {
  const row = await getStoredDocument(db, organizationId, documentId);
  if (!DOCUMENT_TYPE_TABLE[row.type].receivesPayments) fail('CONFLICT', 'Seules les factures reçoivent des paiements');
  if (row.status === 'draft') fail('CONFLICT', 'Émettez la facture avant d’y enregistrer un paiement');
  if (!PAYABLE_STATUSES.includes(row.status)) fail('CONFLICT', 'Cette facture est annulée : elle ne reçoit plus de paiement');
  return row;
}

/** Today by the server's clock, the one the reminders and the due dates of the payments run on. */
function assertReceived(payment: Payment): void {
  const problem = futurePaymentProblem(payment.date, parisToday(clock.now()));
  if (problem) fail('BAD_REQUEST', problem);
}

/** A payment is counted in the currency's units: 33,3333 € cannot be paid (3 × it would leave 0,0001 € due). */
function storedAmount(invoice: StoredDocument, amount: number): number {
  const precision = currencyPrecision(invoice.currency);
  if (toUnits4(amount) % pow10(INPUT_SCALE - precision) !== 0n)
    fail('BAD_REQUEST', `Montant du paiement : ${plural(precision, 'décimale')} au plus en ${invoice.currency}`);
  return toStoredUnits(amount);
}

/** What is left to pay on an invoice, in stored units: total − deposits − credit set against it − payments (reversals netted). */
export async function amountLeftToPay(db: Db, organizationId: number, invoice: StoredDocument): Promise<bigint> {
  const [received, credited] = await Promise.all([
    sumPayments(db, { organizationId, documentId: invoice.id }),
    sumAllocatedToInvoice(db, { organizationId, invoiceId: invoice.id }),
  ]);
  // Exact integer arithmetic on scale-4 units (shared/fixed.ts).
  return toUnits4(invoice.totals.total) - toUnits4(invoice.totals.deposits) - BigInt(credited) - BigInt(received);
}

/** No payment takes more than what is left to pay. */
async function assertFits(db: Db, organizationId: number, invoice: StoredDocument, amount: number): Promise<void> {
  const left = await amountLeftToPay(db, organizationId, invoice);
  if (BigInt(amount) > left) {
    const { currency_format } = await getAppSettings(db, organizationId);
    fail(
      'CONFLICT',
      `Le paiement dépasse le reste à payer (${formatMoney(unitsToNumber(left, 4), { ...currency_format, currency: invoice.currency }, invoice.currency)})`,
    );
  }
}

async function foundPayment(db: Db, organizationId: number, documentId: number, id: number) {
  const payment = await findPayment(db, { organizationId, documentId, id });
  return payment ?? fail('NOT_FOUND', 'Paiement introuvable');
}

export async function getPayments(db: Db, organizationId: number, documentId: number) {
  await getStoredDocument(db, organizationId, documentId);
  const data = (await listPayments(db, { organizationId, documentId })).map(paymentOf);
  return { total: data.length, data };
}

const logged = (id: number, values: { date: string; amount: number; method: string; reverses_id?: number | null }) => ({
  id,
  date: values.date,
  amount: fromStoredUnits(values.amount),
  method: values.method,
  reverses_id: values.reverses_id ?? null,
});

const documentOf = (invoice: StoredDocument) => ({
  id: invoice.id,
  type: invoice.type,
  number: invoice.number,
  total: invoice.totals.total,
  currency: invoice.currency,
});

/** Inserts a payment and its log entry; the caller's transaction refreshes the balance. */
async function insertLogged(
  db: Db,
  organizationId: number,
  invoice: StoredDocument,
  values: Payment & { amount: number } & ProcessorFee,
  userId?: number,
) {
  await assertFits(db, organizationId, invoice, values.amount);
  const id = await insertPayment(db, { organizationId, documentId: invoice.id, values });
  await appendAudit(db, organizationId, 'payment', { document: documentOf(invoice), payment: logged(id, values) }, userId);
  return id;
}

/** Records a payment; the invoice's paid amount, what is left, its status and the log follow in the same transaction. */
export async function recordPayment(
  db: Db,
  organizationId: number,
  documentId: number,
  payment: Payment,
  userId?: number,
): Promise<PaymentRecord> {
  const id = await db.transaction().execute((trx) => recordPaymentIn(trx, organizationId, documentId, payment, userId));
  // A full payment may have queued « Encaissée » for the platform: sent now rather than at the outbox's next look.
  kickFlowOutboxes();
  return paymentOf(await foundPayment(db, organizationId, documentId, id));
}

/**
 * Records a payment inside the caller's transaction (a bank line paying several invoices records them together or
 * not at all); answers its id. The invoice row is locked first on PostgreSQL, so that two payments at once cannot
 * both fit in what is left to pay.
 */
export async function recordPaymentIn(
  trx: Db,
  organizationId: number,
  documentId: number,
  payment: Payment,
  userId?: number,
  fee: ProcessorFee = {},
): Promise<number> {
  assertReceived(payment);
  await lockRow(trx, 'documents', documentId);
  const invoice = await payableInvoice(trx, organizationId, documentId);
  const amount = storedAmount(invoice, payment.amount);
  const newId = await insertLogged(trx, organizationId, invoice, { ...payment, amount, ...fee }, userId);
  await refreshInvoiceBalance(trx, organizationId, documentId);
  await emitEvent(trx, organizationId, 'payment.recorded', async () => ({
    ...paymentOf(await foundPayment(trx, organizationId, documentId, newId)),
    document: { id: invoice.id, number: invoice.number, currency: invoice.currency },
  }));
  return newId;
}

/**
 * Cancels a payment by a counter-entry of the opposite amount: a recorded payment is never rewritten nor deleted (C. com.
 * L123-22, accounting records are kept unaltered). The counter-entry takes the cancelled payment's date, not today's:
 * the money never came in that day, and dated later it would leave the payment counted in its period (VAT on receipts,
 * livre des recettes, bank journal) and take it off another. When it was recorded stays in the log. Runs in the
 * caller's transaction.
 */
async function reverseIn(db: Db, organizationId: number, invoice: StoredDocument, id: number, userId?: number): Promise<void> {
  const payment = await foundPayment(db, organizationId, invoice.id, id);
  if (payment.reverses_id !== null) fail('CONFLICT', 'Une contre-écriture ne s’annule pas : enregistrez un nouveau paiement');
  if (payment.reversed_by_id !== null) fail('CONFLICT', 'Ce paiement est déjà annulé par une contre-écriture');
  const values = {
    date: payment.date,
    amount: -payment.amount,
    method: payment.method,
    reference: payment.reference,
    note: `Annulation du paiement du ${formatDateShort(payment.date)}`,
    reverses_id: payment.id,
  };
  const reversalId = await insertPayment(db, { organizationId, documentId: invoice.id, values });
  await appendAudit(db, organizationId, 'payment_reversal', { document: documentOf(invoice), payment: logged(reversalId, values) }, userId);
}

export async function reversePayment(db: Db, organizationId: number, documentId: number, id: number, userId?: number): Promise<void> {
  const invoice = await getStoredDocument(db, organizationId, documentId);
  await db.transaction().execute(async (trx) => {
    await reverseIn(trx, organizationId, invoice, id, userId);
    await refreshInvoiceBalance(trx, organizationId, documentId);
  });
}

/** Correcting a payment = reversing it and recording the right one, together: the answer is the new payment. */
export async function correctPayment(
  db: Db,
  organizationId: number,
  documentId: number,
  id: number,
  payment: Payment,
  userId?: number,
): Promise<PaymentRecord> {
  assertReceived(payment);
  const invoice = await payableInvoice(db, organizationId, documentId);
  const amount = storedAmount(invoice, payment.amount);
  const newId = await db.transaction().execute(async (trx) => {
    await reverseIn(trx, organizationId, invoice, id, userId);
    const created = await insertLogged(trx, organizationId, invoice, { ...payment, amount }, userId);
    await refreshInvoiceBalance(trx, organizationId, documentId);
    return created;
  });
  return paymentOf(await foundPayment(db, organizationId, documentId, newId));
}
