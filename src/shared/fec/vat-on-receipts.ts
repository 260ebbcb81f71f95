/**
 * VAT on receipts in the books (CGI art. 269-2-c, 271-I-2): VAT invoiced but not yet due waits on « TVA collectée sur
 * encaissements » (44574), deductible VAT not yet deductible on « TVA déductible sur encaissements » (44564); each is
 * moved to 44571 / 44566 on the day it falls due, so that a month's movement on 44571 and 44566 is what the VAT return
 * declares for that month.
 *
 * | piece                                  | debit                               | credit                                |
 * |----------------------------------------|-------------------------------------|---------------------------------------|
 * | invoice, deposit invoice (VT)          | 411                                 | 44571: VAT due at issue; 44574: the   |
 * |                                        |                                     | rest (services, deposits received)    |
 * | credit note (VT)                       | 44571 / 44574 alike, reversed       | 411                                   |
 * | payment or credit note's day (OD)      | 44574: VAT the return makes due     | 44571                                 |
 * | expense of services (AC)               | 6xx; 44564: its deductible VAT      | 401                                   |
 * | expense of services paid (OD)          | 44566                               | 44564                                 |
 *
 * The transfers are entries of their own in the miscellaneous journal, dated the day the VAT falls due, rather than
 * lines added to the payment's bank entry: a bank-journal entry mirrors one bank movement (a statement line may pay
 * several documents, a payment may be a bank line's or a hand-recorded one, an expense's payment is recorded in either
 * way), while a transfer moves no money. Debiting one VAT account and crediting the other, each transfer balances by
 * itself, whichever way the payment reached the books.
 */
import { INPUT_SCALE, type Money, rescale, toUnits4 } from '../money';
import type { AccountingSettings } from '../schemas/accounting';
import { receiptVat, type SaleDocument, type VatBasis } from '../vat-return/sales';
import { ACCOUNT_LABELS, type FecEntry, type FecLine } from './entries';

/** VAT the sale documents of the books hold on the waiting account at issue, by document id, and the transfers. */
export interface SalesOnReceipts {
  held: Map<number, bigint>;
  transfers: FecEntry[];
}

const toUnits = (m: Money, precision: number) => rescale(toUnits4(m), INPUT_SCALE, precision);

function line(account: string, accountLabel: string, label: string, amount: bigint): FecLine {
  return { account, accountLabel, aux: null, label, debit: amount > 0n ? amount : 0n, credit: amount < 0n ? -amount : 0n, foreign: null };
}

/** One transfer of `amount` (units of the accounting currency, negative backwards) from `from` to `to`. */
function transferEntry(
  piece: { reference: string; date: string; label: string },
  debit: { account: string; label: string },
  credit: { account: string; label: string },
  amount: bigint,
): FecEntry {
  return {
    journal: 'OD',
    date: piece.date,
    pieceRef: piece.reference,
    pieceDate: piece.date,
    validDate: piece.date,
    recordedAt: piece.date,
    lines: [line(debit.account, debit.label, piece.label, amount), line(credit.account, credit.label, piece.label, -amount)].filter(
      (l) => l.debit !== 0n || l.credit !== 0n,
    ),
  };
}

/**
 * From the sales as the VAT return reads them (in the base currency, with their payments, credit notes and deposits):
 * what each invoice and credit note holds on 44574 at issue, and one transfer per invoice and day of [from, to] on
 * which a payment or a credit note made some of it due, of exactly what the return makes due that day.
 */
export function salesOnReceipts(
  documents: readonly SaleDocument[],
  period: { from: string | null; to: string; basis: VatBasis },
  accounts: AccountingSettings,
  precision: number,
): SalesOnReceipts {
  const held = new Map<number, bigint>();
  const transfers: FecEntry[] = [];
  // An accountant who wants no waiting account gives 44571 for both: nothing to hold, nothing to move.
  if (accounts.vat_on_receipts === accounts.vat) return { held, transfers };
  const creditsOf = new Map<number, SaleDocument[]>();
  const depositsOf = new Map<number, SaleDocument[]>();
  for (const d of documents) {
    const [key, into] = d.type === 'credit' ? [d.correctsId, creditsOf] : [d.deductedById, depositsOf];
    if (key === null) continue;
    const group = into.get(key);
    if (group) group.push(d);
    else into.set(key, [d]);
  }
  const waiting = { account: accounts.vat_on_receipts, label: ACCOUNT_LABELS.vat_on_receipts };
  const due = { account: accounts.vat, label: ACCOUNT_LABELS.vat };
  for (const invoice of documents.filter((d) => d.type === 'invoice')) {
    const vat = receiptVat(invoice, creditsOf.get(invoice.id) ?? [], depositsOf.get(invoice.id) ?? [], period.basis);
    for (const [id, amount] of vat.held) if (!amount.eq(0)) held.set(id, toUnits(amount, precision));
    for (const day of vat.events) {
      if ((period.from !== null && day < period.from) || day > period.to) continue;
      const amount =
        toUnits(
          vat.dueUpTo((d) => d <= day),
          precision,
        ) -
        toUnits(
          vat.dueUpTo((d) => d < day),
          precision,
        );
      if (amount === 0n) continue;
      const piece = { reference: invoice.number, date: day, label: `TVA exigible ${invoice.number} ${invoice.party}` };
      transfers.push(transferEntry(piece, waiting, due, amount));
    }
  }
  return { held, transfers };
}

/** An expense of services whose deductible VAT waits on 44564 until it is paid (units of the accounting currency). */
export interface ExpenseOnReceipts {
  reference: string;
  supplier: string;
  paidAt: string;
  deductible: bigint;
}

/** The transfer of a paid expense's deductible VAT from 44564 to 44566, on the day it was paid. */
export function expenseVatTransfer(expense: ExpenseOnReceipts, accounts: AccountingSettings): FecEntry {
  return transferEntry(
    { reference: expense.reference, date: expense.paidAt, label: `TVA déductible ${expense.reference} ${expense.supplier}` },
    { account: accounts.deductible_vat, label: ACCOUNT_LABELS.deductible_vat },
    { account: accounts.deductible_vat_on_receipts, label: ACCOUNT_LABELS.deductible_vat_on_receipts },
    expense.deductible,
  );
}
