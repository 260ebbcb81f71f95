import type { Db } from '../db/connection';
import type { Payment } from '../../shared/schemas/payment';
import { PAYABLE_STATUSES } from '../../shared/document-status';
import { INPUT_SCALE, pow10, toUnits4, unitsToNumber } from '../../shared/money';
import type { StoredDocument } from '../../shared/schemas/document-model';
import { formatMoney } from '../../shared/format';
import { fail } from '../errors';
import {
  deletePayment,
  findPayment,
  insertPayment,
  listPayments,
  sumPayments,
  updatePayment,
  type PaymentRow,
} from '../db/queries/payments';
import { sumIssuedCredits } from '../db/queries/document-lists';
import { fromStoredUnits, toStoredUnits } from '../../shared/money';
import { getStoredDocument } from './documents';
import { refreshInvoiceBalance } from './document-lifecycle';
import { getAppSettings } from './settings';
import { currencyPrecision } from '../../shared/currencies';

const paymentOf = (p: Omit<PaymentRow, 'organization_id'>) => ({ ...p, amount: fromStoredUnits(p.amount) });
export type PaymentRecord = ReturnType<typeof paymentOf>;

async function payableInvoice(db: Db, organizationId: number, documentId: number): Promise<StoredDocument> {
  const row = await getStoredDocument(db, organizationId, documentId);
  if (row.type !== 'invoice') fail('CONFLICT', 'Seules les factures reçoivent des paiements');
  if (row.status === 'draft') fail('CONFLICT', 'Émettez la facture avant d’y enregistrer un paiement');
  if (!PAYABLE_STATUSES.includes(row.status)) fail('CONFLICT', 'Cette facture est annulée : elle ne reçoit plus de paiement');
  return row;
}

/** A payment is counted in the currency's units: 33,3333 € cannot be paid (3 × it would leave 0,0001 € due). */
function storedAmount(invoice: StoredDocument, amount: number): number {
  const precision = currencyPrecision(invoice.currency);
  if (toUnits4(amount) % pow10(INPUT_SCALE - precision) !== 0n)
    fail('BAD_REQUEST', `Montant du paiement : ${precision} décimale${precision > 1 ? 's' : ''} au plus en ${invoice.currency}`);
  return toStoredUnits(amount);
}

/** No payment takes more than what is left to pay (total − deposits − credit notes − other payments). */
async function assertFits(db: Db, organizationId: number, invoice: StoredDocument, amount: number, exceptId?: number): Promise<void> {
  const [others, credited] = await Promise.all([
    sumPayments(db, { organizationId, documentId: invoice.id, exceptId }),
    sumIssuedCredits(db, { organizationId, invoiceId: invoice.id }),
  ]);
  // Exact integer arithmetic on scale-4 units (shared/fixed.ts).
  const left = toUnits4(invoice.totals.total) - toUnits4(invoice.totals.deposits) - toUnits4(credited) - BigInt(others);
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

/** Records a payment; the invoice's paid amount, what is left and its status follow in the same transaction. */
export async function recordPayment(db: Db, organizationId: number, documentId: number, payment: Payment): Promise<PaymentRecord> {
  const invoice = await payableInvoice(db, organizationId, documentId);
  const amount = storedAmount(invoice, payment.amount);
  const id = await db.transaction().execute(async (trx) => {
    await assertFits(trx, organizationId, invoice, amount);
    const newId = await insertPayment(trx, { organizationId, documentId, values: { ...payment, amount } });
    await refreshInvoiceBalance(trx, organizationId, documentId);
    return newId;
  });
  return paymentOf(await foundPayment(db, organizationId, documentId, id));
}

export async function editPayment(
  db: Db,
  organizationId: number,
  documentId: number,
  id: number,
  payment: Payment,
): Promise<PaymentRecord> {
  const invoice = await payableInvoice(db, organizationId, documentId);
  if (!(await findPayment(db, { organizationId, documentId, id }))) fail('NOT_FOUND', 'Paiement introuvable');
  const amount = storedAmount(invoice, payment.amount);
  await db.transaction().execute(async (trx) => {
    await assertFits(trx, organizationId, invoice, amount, id);
    await updatePayment(trx, { organizationId, id, values: { ...payment, amount } });
    await refreshInvoiceBalance(trx, organizationId, documentId);
  });
  return paymentOf(await foundPayment(db, organizationId, documentId, id));
}

export async function removePayment(db: Db, organizationId: number, documentId: number, id: number): Promise<void> {
  await getStoredDocument(db, organizationId, documentId);
  if (!(await findPayment(db, { organizationId, documentId, id }))) fail('NOT_FOUND', 'Paiement introuvable');
  await db.transaction().execute(async (trx) => {
    await deletePayment(trx, { organizationId, id });
    await refreshInvoiceBalance(trx, organizationId, documentId);
  });
}
