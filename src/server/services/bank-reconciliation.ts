import type { Db } from '../db/connection';
import { linesWithBooked, unlinkedBookMovements } from '../db/queries/bank-reconciliation';
import { fromStoredUnits } from '../../shared/money';
import type { BankReconciliation } from '../../shared/schemas/bank';
import { getBankAccountRow } from './bank-accounts';

const STATUS_REASON: Record<string, string> = {
  unmatched: 'À rapprocher',
  suggested: 'Suggestion à confirmer',
  matched: 'Paiement corrigé depuis le rapprochement',
  ignored: 'Ignorée',
};

/**
 * The account's état de rapprochement on the date of the latest balance its statements stated. The books' balance is
 * the opening balance (the stated balance less every line up to it) plus what the books hold of each line and the
 * bank movements the books hold without a line; the difference with the bank is explained line by line. Hand
 * payments without a line count on the default account only: the books do not say which account they went through.
 */
export async function bankReconciliation(db: Db, organizationId: number, accountId: number): Promise<BankReconciliation> {
  const account = await getBankAccountRow(db, organizationId, accountId);
  const currency = 'EUR';
  const empty = {
    account_id: account.id,
    currency,
    opening: null,
    not_in_books: [],
    not_on_statement: [],
    book_balance: null,
    difference: null,
  };
  if (account.statement_balance === null || account.statement_balance_date === null) return { ...empty, statement: null };
  const until = account.statement_balance_date;
  const statement = { date: until, balance: fromStoredUnits(account.statement_balance) };
  const lines = await linesWithBooked(db, { organizationId, accountId, until });
  const first = lines[0];
  if (!first) return { ...empty, statement };

  const sign = (amount: number) => (amount < 0 ? -1 : 1);
  const opening = account.statement_balance - lines.reduce((sum, l) => sum + l.amount, 0);
  const notInBooks = lines
    .map((l) => ({ ...l, left: l.amount - sign(l.amount) * l.booked }))
    .filter((l) => l.left !== 0)
    .map((l) => ({
      id: l.id,
      date: l.date,
      label: l.label,
      amount: fromStoredUnits(l.left),
      status: l.status,
      reason: l.status === 'ignored' && l.ignore_reason ? `Ignorée : ${l.ignore_reason}` : (STATUS_REASON[l.status] ?? l.status),
    }));
  const movements =
    account.is_default === 1
      ? await unlinkedBookMovements(db, { organizationId, currency, from: first.date, until })
      : { payments: [], expenses: [] };
  const notOnStatement = [
    ...movements.payments.map((p) => ({
      kind: 'invoice' as const,
      id: p.document_id,
      date: p.date,
      label: `Paiement de ${p.number ?? 'facture'}${p.customer_name ? ` · ${p.customer_name}` : ''}`,
      units: p.amount,
    })),
    ...movements.expenses.map((e) => ({
      kind: 'expense' as const,
      id: e.id,
      date: e.paid_at ?? until,
      label: `Dépense ${e.supplier}${e.invoice_number ? ` · ${e.invoice_number}` : ''}`,
      units: -e.amount,
    })),
  ].sort((a, b) => a.date.localeCompare(b.date));

  const bookedUnits = lines.reduce((sum, l) => sum + sign(l.amount) * l.booked, 0);
  const unlinkedUnits = notOnStatement.reduce((sum, m) => sum + m.units, 0);
  const book = opening + bookedUnits + unlinkedUnits;
  return {
    account_id: account.id,
    currency,
    statement,
    opening: { date: first.date, balance: fromStoredUnits(opening) },
    not_in_books: notInBooks,
    not_on_statement: notOnStatement.map(({ units, ...m }) => ({ ...m, amount: fromStoredUnits(units) })),
    book_balance: fromStoredUnits(book),
    difference: fromStoredUnits(account.statement_balance - book),
  };
}
