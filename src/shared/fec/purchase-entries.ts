/**
 * Entries of the FEC for what the organisation buys and what moves on its bank accounts, in units of the accounting
 * currency; like the sales entries (entries.ts), each balances by construction.
 *
 * | piece                        | debit                                        | credit                                      |
 * |------------------------------|----------------------------------------------|---------------------------------------------|
 * | supplier invoice (AC)        | 6xx/2xx of its category: HT + VAT that is    | 401 supplier: TTC                           |
 * |                              | not deductible; 44566: deductible VAT (44564 |                                             |
 * |                              | for services until paid: vat-on-receipts.ts) |                                             |
 * | self-assessed (AC)           | 6xx: HT (+ VAT not deductible); 44566        | 401: HT; 4452: the VAT self-assessed        |
 * | supplier credit note (AC)    | the invoice's lines, reversed (amounts are stored negative)                               |
 * | expense paid by hand (BQ)    | 401 supplier                                 | 512 bank                                    |
 * | bank statement line (BQ)     | 512xx: a credit; 401: the expenses it paid   | 512xx: a debit; 411: the invoices it paid;  |
 * |                              |                                              | 471: what no document explains             |
 * | bank payment reversed (OD)   | 411 customer                                 | 471: the line's money, explained no more    |
 */
import { INPUT_SCALE, rescale, toUnits4 } from '../money';
import type { AccountingSettings } from '../schemas/accounting';
import { ACCOUNT_LABELS, balancedLines, type Conversion, type Draft, type FecEntry } from './entries';

type Party = { number: string; name: string };

/** An expense or a supplier's credit note as the FEC needs it: signed amounts as stored (a credit note's negative). */
export interface PurchaseRecord {
  kind: 'expense' | 'credit_note';
  /** The supplier's invoice number, else the expense's own reference. */
  reference: string;
  date: string;
  validDate: string;
  recordedAt: string;
  supplier: Party;
  /** The account of its category (class 6, or 2 for a fixed asset) and that category's label. */
  account: string;
  accountLabel: string;
  /** TTC (HT when the VAT is self-assessed), in major units of its currency. */
  amount: number;
  vat: { rate: number; amount: number; deductible: boolean }[];
  reverseCharge: '' | 'goods' | 'services';
  /** Services bought: their VAT is deductible once paid (CGI art. 271-I-2), it waits on 44564 until then. */
  deductibleOnPayment?: boolean;
}

const unitsOf = (conversion: Conversion) => (n: number) => rescale(toUnits4(n), INPUT_SCALE, conversion.sourcePrecision);

function draft(account: string, accountLabel: string, label: string, amount: bigint, aux: Party | null = null): Draft {
  return { account, accountLabel, aux: aux ? { number: aux.number, label: aux.name } : null, label, amount, source: amount };
}

/** One purchases-journal entry (AC) for an expense or a supplier's credit note. */
export function purchaseEntry(purchase: PurchaseRecord, accounts: AccountingSettings, conversion: Conversion): FecEntry {
  const units = unitsOf(conversion);
  const label = `${purchase.kind === 'credit_note' ? 'Avoir' : 'Facture'} ${purchase.reference} ${purchase.supplier.name}`;
  const amount = units(purchase.amount);
  const vat = purchase.vat.map((v) => ({ amount: units(v.amount), deductible: v.deductible }));
  const deductible = vat.filter((v) => v.deductible).reduce((a, v) => a + v.amount, 0n);
  const vatSum = vat.reduce((a, v) => a + v.amount, 0n);
  const selfAssessed = purchase.reverseCharge !== '';
  // VAT that cannot be deducted (foreign VAT, excluded expenses) is part of what the purchase costs.
  const charge = selfAssessed ? amount + vatSum - deductible : amount - deductible;
  const debits = [
    draft(purchase.account, purchase.accountLabel, label, charge),
    purchase.deductibleOnPayment && !selfAssessed && accounts.deductible_vat_on_receipts !== accounts.deductible_vat
      ? draft(accounts.deductible_vat_on_receipts, ACCOUNT_LABELS.deductible_vat_on_receipts, label, deductible)
      : draft(accounts.deductible_vat, ACCOUNT_LABELS.deductible_vat, label, deductible),
  ];
  const credits = [
    draft(accounts.suppliers, ACCOUNT_LABELS.suppliers, label, amount, purchase.supplier),
    ...(selfAssessed ? [draft(accounts.self_assessed_vat, ACCOUNT_LABELS.self_assessed_vat, label, vatSum)] : []),
  ];
  return {
    journal: 'AC',
    date: purchase.date,
    pieceRef: purchase.reference,
    pieceDate: purchase.date,
    validDate: purchase.validDate,
    recordedAt: purchase.recordedAt,
    lines: balancedLines(debits, credits, conversion),
  };
}

/** An expense marked paid by hand (no bank line confirmed it): signed as stored, a credit note's refund negative. */
export interface ExpensePaymentRecord {
  reference: string;
  date: string;
  validDate: string;
  recordedAt: string;
  supplier: Party;
  amount: number;
}

/** One bank-journal entry (BQ) for an expense paid by hand: the supplier's account is cleared from the bank. */
export function expensePaymentEntry(payment: ExpensePaymentRecord, accounts: AccountingSettings, conversion: Conversion): FecEntry {
  const amount = unitsOf(conversion)(payment.amount);
  const label = `Paiement ${payment.reference} ${payment.supplier.name}`;
  return {
    journal: 'BQ',
    date: payment.date,
    pieceRef: payment.reference,
    pieceDate: payment.date,
    validDate: payment.validDate,
    recordedAt: payment.recordedAt,
    lines: balancedLines(
      [draft(accounts.suppliers, ACCOUNT_LABELS.suppliers, label, amount, payment.supplier)],
      [draft(accounts.bank, ACCOUNT_LABELS.bank, label, amount)],
      conversion,
    ),
  };
}

/** A confirmed statement line's share of one document: an invoice it cashed or an expense it paid. */
export interface BankLinePart {
  kind: 'invoice' | 'expense';
  /** Positive, in major units of the line's currency: the line's share. */
  amount: number;
  /** What was kept of an invoice's payment before it reached the bank (card or bank fee): 411 is cleared of both. */
  fee?: number;
  party: Party;
  reference: string;
}

/** A line of a bank statement, as the bank wrote it: signed (a credit positive), on its account's own 512 sub-account. */
export interface BankLineRecord {
  reference: string;
  date: string;
  validDate: string;
  recordedAt: string;
  label: string;
  bank: { account: string; label: string };
  amount: number;
  parts: BankLinePart[];
}

/**
 * One bank-journal entry (BQ) per statement line, so that the sub-account moves exactly as the statement does: the
 * documents the line paid are cleared, and what no confirmed document explains waits on 471 for the accountant.
 */
export function bankLineEntry(line: BankLineRecord, accounts: AccountingSettings, conversion: Conversion): FecEntry {
  const units = unitsOf(conversion);
  const label = line.label || `Opération du ${line.date}`;
  const amount = units(line.amount);
  const parts = line.parts.flatMap((p) => {
    if (p.kind === 'expense')
      return [draft(accounts.suppliers, ACCOUNT_LABELS.suppliers, `Paiement ${p.reference} ${p.party.name}`, -units(p.amount), p.party)];
    const fee = p.fee ? units(p.fee) : 0n;
    const settled = draft(
      accounts.customers,
      ACCOUNT_LABELS.customers,
      `Règlement ${p.reference} ${p.party.name}`,
      units(p.amount) + fee,
      p.party,
    );
    // The fee on the debit side (a negative credit), so that 512 moves by the line and 411 by the whole payment.
    return fee > 0n ? [settled, draft(accounts.fees, ACCOUNT_LABELS.fees, `Frais ${p.reference} ${p.party.name}`, -fee)] : [settled];
  });
  const explained = parts.reduce((a, p) => a + p.amount, 0n);
  return {
    journal: 'BQ',
    date: line.date,
    pieceRef: line.reference,
    pieceDate: line.date,
    validDate: line.validDate,
    recordedAt: line.recordedAt,
    lines: balancedLines(
      [draft(line.bank.account, line.bank.label, label, amount)],
      [...parts, draft(accounts.suspense, ACCOUNT_LABELS.suspense, label, amount - explained)],
      conversion,
    ),
  };
}

/** A payment a bank line recorded, reversed since: the customer owes it again, the line's money is unexplained. */
export interface ReversedBankPayment {
  invoiceNumber: string;
  date: string;
  validDate: string;
  recordedAt: string;
  customer: Party;
  /** Positive: what the reversed payment had cleared. */
  amount: number;
  /** What the line's payment had put on bank charges: taken back off them, the line's share alone left unexplained. */
  fee?: number;
}

/** One miscellaneous-operations entry (OD): 411 back to the debit, the bank line's share back to 471. */
export function reversedBankPaymentEntry(reversal: ReversedBankPayment, accounts: AccountingSettings, conversion: Conversion): FecEntry {
  const units = unitsOf(conversion);
  const amount = units(reversal.amount);
  const fee = reversal.fee ? units(reversal.fee) : 0n;
  const label = `Annulation du règlement ${reversal.invoiceNumber} ${reversal.customer.name}`;
  return {
    journal: 'OD',
    date: reversal.date,
    pieceRef: reversal.invoiceNumber,
    pieceDate: reversal.date,
    validDate: reversal.validDate,
    recordedAt: reversal.recordedAt,
    lines: balancedLines(
      [draft(accounts.customers, ACCOUNT_LABELS.customers, label, amount, reversal.customer)],
      [
        draft(accounts.suspense, ACCOUNT_LABELS.suspense, label, amount - fee),
        ...(fee > 0n ? [draft(accounts.fees, ACCOUNT_LABELS.fees, label, fee)] : []),
      ],
      conversion,
    ),
  };
}
