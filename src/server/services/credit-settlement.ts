import type { Db } from '../db/connection';
import { lockRow } from '../db/dialect';
import { findDocument } from '../db/queries/documents';
import {
  findOpenInvoices,
  insertAllocation,
  listAllocationsOfCredit,
  sumAllocatedFromCredit,
  sumAllocatedToInvoice,
} from '../db/queries/credit-allocations';
import { currencyPrecision } from '../../shared/currencies';
import { DOCUMENT_TYPE_TABLE } from '../../shared/document-types';
import { fromStoredUnits, INPUT_SCALE, pow10, toStoredUnits } from '../../shared/money';
import { formatDecimal } from '../../shared/format';
import type { CreditRefund, CreditSettlement } from '../../shared/schemas/payment';
import type { StoredDocument } from '../../shared/schemas/document-model';
import { futurePaymentProblem } from '../../shared/schemas/payment';
import { parisToday } from '../../shared/paris-date';
import { clock } from '../clock';
import { fail } from '../errors';
import { refreshInvoiceBalance } from './document-lifecycle';
import { getStoredDocument } from './documents';

/** What is still open on an issued invoice (scale 4): its total less deposits, payments and credits set against it. */
async function openOn(db: Db, organizationId: number, invoiceId: number): Promise<number> {
  const invoice = await findDocument(db, { organizationId, id: invoiceId });
  if (!invoice || !DOCUMENT_TYPE_TABLE[invoice.type].receivesPayments || invoice.status === 'draft' || invoice.status === 'canceled')
    return 0;
  const allocated = await sumAllocatedToInvoice(db, { organizationId, invoiceId });
  return toStoredUnits(invoice.totals.total) - toStoredUnits(invoice.totals.deposits) - toStoredUnits(invoice.totals.paid) - allocated;
}

/**
 * Settles a credit note just issued, in its issuing transaction: its amount is set against the invoice it corrects for
 * what is still open there, then against the customer's other open invoices in the same currency, oldest first; what
 * is left stays available, to be refunded. A credit note is thereby never a negative amount due on an invoice.
 */
export async function settleCredit(db: Db, organizationId: number, creditId: number): Promise<void> {
  const credit = await findDocument(db, { organizationId, id: creditId });
  if (credit?.type !== 'credit' || !credit.number) return;
  let available = toStoredUnits(credit.totals.total) - (await sumAllocatedFromCredit(db, { organizationId, creditId }));
  const others = credit.customer_id
    ? (await findOpenInvoices(db, { organizationId, customerId: credit.customer_id, currency: credit.currency })).map((r) => r.id)
    : [];
  const targets = [...new Set([...(credit.corrects_id ? [credit.corrects_id] : []), ...others])];
  for (const invoiceId of targets) {
    const amount = available > 0 ? Math.min(available, await openOn(db, organizationId, invoiceId)) : 0;
    if (amount > 0) {
      await insertAllocation(db, { organizationId, creditId, invoiceId, amount, method: '', date: credit.date });
      available -= amount;
    }
    // The corrected invoice is refreshed even when nothing was open on it: its status follows its credit notes.
    if (amount > 0 || invoiceId === credit.corrects_id) await refreshInvoiceBalance(db, organizationId, invoiceId);
  }
}

/** Where an issued credit note's amount went, and what it has left. */
export async function creditSettlementOf(
  db: Db,
  organizationId: number,
  credit: Pick<StoredDocument, 'id' | 'number' | 'totals'>,
): Promise<CreditSettlement> {
  const rows = credit.number ? await listAllocationsOfCredit(db, { organizationId, creditId: credit.id }) : [];
  const given = rows.reduce((s, r) => s + r.amount, 0);
  return {
    applied: rows
      .filter((r) => r.invoice_id !== null)
      .map((r) => ({
        invoice_id: r.invoice_id as number,
        number: r.invoice_number ?? '',
        amount: fromStoredUnits(r.amount),
        date: r.date,
      })),
    refunds: rows.filter((r) => r.invoice_id === null).map((r) => ({ amount: fromStoredUnits(r.amount), method: r.method, date: r.date })),
    available: credit.number ? fromStoredUnits(toStoredUnits(credit.totals.total) - given) : 0,
  };
}

/** Records that what a credit note has left (or part of it) was paid back to the customer. */
export async function refundCredit(db: Db, organizationId: number, creditId: number, refund: CreditRefund): Promise<CreditSettlement> {
  const problem = futurePaymentProblem(refund.date, parisToday(clock.now()));
  if (problem) fail('BAD_REQUEST', problem.replace('paiement', 'remboursement'));
  await db.transaction().execute(async (trx) => {
    await lockRow(trx, 'documents', creditId);
    const credit = await getStoredDocument(trx, organizationId, creditId);
    if (credit.type !== 'credit') fail('CONFLICT', 'Seul un avoir se rembourse');
    if (!credit.number) fail('CONFLICT', 'Émettez l’avoir avant de le rembourser');
    const available = toStoredUnits(credit.totals.total) - (await sumAllocatedFromCredit(trx, { organizationId, creditId }));
    const precision = currencyPrecision(credit.currency);
    const amount = refund.amount === undefined ? available : toStoredUnits(refund.amount);
    if (amount % Number(pow10(INPUT_SCALE - precision)) !== 0)
      fail('BAD_REQUEST', `Montant du remboursement : ${precision} décimales au plus en ${credit.currency}`);
    if (available <= 0) fail('CONFLICT', 'Cet avoir n’a plus rien à rembourser : il est entièrement imputé ou remboursé');
    if (amount <= 0) fail('BAD_REQUEST', 'Montant du remboursement : un montant positif est attendu');
    if (amount > available)
      fail(
        'CONFLICT',
        `Le remboursement (${formatDecimal(fromStoredUnits(amount), precision)}) dépasse le crédit disponible de l’avoir (${formatDecimal(fromStoredUnits(available), precision)})`,
      );
    await insertAllocation(trx, { organizationId, creditId, invoiceId: null, amount, method: refund.method, date: refund.date });
  });
  return creditSettlementOf(db, organizationId, await getStoredDocument(db, organizationId, creditId));
}
