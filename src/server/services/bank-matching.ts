import type { Db } from '../db/connection';
import { nowIso } from '../clock';
import { fail } from '../errors';
import { lockRow } from '../db/dialect';
import {
  type BankTransactionRow,
  findTransactionRow,
  listMatchesOf,
  listOpenInvoices,
  listTransactionRows,
  listUnpaidExpenses,
  searchOpenInvoices,
  searchUnpaidExpenses,
} from '../db/queries/bank';
import { contestedDocuments, createMatcher, type Proposal } from '../bank/matching';
import { fromStoredUnits, sub, toStoredUnits } from '../../shared/money';
import {
  type BankTransaction,
  type BankTransactionQuery,
  type MatchCandidate,
  type MatchKind,
  SURE,
  type Suggestion,
} from '../../shared/schemas/bank';
import { formatMoney } from '../../shared/format';
import { recordPaymentIn } from './payments';
import { kickFlowOutboxes } from './einvoice-outbox';
import { nextTurn } from '../workers/packed';
import { getAppSettings } from './settings';

const LINE_NOT_FOUND = 'Opération bancaire introuvable';

/** A matcher over what is open now: built per request, so a suggestion never names an invoice paid since the import. */
export async function currentMatcher(db: Db, organizationId: number) {
  const [invoices, expenses] = await Promise.all([listOpenInvoices(db, organizationId), listUnpaidExpenses(db, organizationId)]);
  return createMatcher(
    invoices.map((i) => ({
      id: i.id,
      number: i.number ?? '',
      customer: i.customer_name,
      currency: i.currency,
      balance: i.amount_due,
      date: i.date,
    })),
    expenses.map((e) => ({
      id: e.id,
      supplier: e.supplier,
      invoiceNumber: e.invoice_number,
      currency: e.currency,
      amount: e.amount,
      date: e.date,
    })),
  );
}

export const suggestionOf = (p: Proposal): Suggestion => ({
  ...p,
  amount: fromStoredUnits(p.amount),
  fee: fromStoredUnits(p.fee),
  balance: fromStoredUnits(p.balance),
});

/** One document a line pays: `amount` is what the document is paid, `fee` what was kept of it before the bank. */
type Target = { kind: MatchKind; id: number; amount: number; fee?: number };

/** What is still to match on a line (stored units, positive). */
const remainingOf = (row: Pick<BankTransactionRow, 'amount' | 'allocated'>) => Math.abs(row.amount) - row.allocated;

const isOpen = (row: BankTransactionRow) => row.status === 'unmatched' || row.status === 'suggested';

function proposalsFor(matcher: Awaited<ReturnType<typeof currentMatcher>>, row: BankTransactionRow): Proposal[] {
  if (!isOpen(row)) return [];
  const remaining = remainingOf(row);
  const line = {
    amount: Math.sign(row.amount) * remaining,
    currency: row.currency,
    label: row.label,
    counterparty: row.counterparty,
    reference: row.reference,
  };
  return matcher.suggest(line);
}

/** Lines as answered: what they paid, and for those still open what they could pay now. */
async function present(db: Db, organizationId: number, rows: BankTransactionRow[]): Promise<BankTransaction[]> {
  const matcher = rows.some(isOpen) ? await currentMatcher(db, organizationId) : null;
  const matches = await listMatchesOf(
    db,
    organizationId,
    rows.map((r) => r.id),
  );
  return rows.map((row) => ({
    id: row.id,
    account_id: row.account_id,
    date: row.date,
    amount: fromStoredUnits(row.amount),
    currency: row.currency,
    label: row.label,
    counterparty: row.counterparty,
    reference: row.reference,
    status: row.status as BankTransaction['status'],
    allocated: fromStoredUnits(row.allocated),
    ignore_reason: row.ignore_reason,
    suggestions: matcher ? proposalsFor(matcher, row).map(suggestionOf) : [],
    matches: matches
      .filter((m) => m.transaction_id === row.id)
      .map((m) => ({
        kind: m.kind as MatchKind,
        id: m.target_id,
        amount: fromStoredUnits(m.amount),
        fee: fromStoredUnits(m.fee ?? 0),
        label: (m.kind === 'invoice' ? m.number : m.supplier) ?? '',
      })),
  }));
}

export async function listBankTransactions(db: Db, organizationId: number, query: BankTransactionQuery) {
  const { rows, total } = await listTransactionRows(db, {
    organizationId,
    accountId: query.account_id,
    status: query.status,
    from: query.from,
    to: query.to,
    offset: (query.page - 1) * query.per_page,
    limit: query.per_page,
  });
  return { total, data: await present(db, organizationId, rows) };
}

export async function getBankTransaction(db: Db, organizationId: number, id: number): Promise<BankTransaction> {
  const [line] = await present(db, organizationId, [await getLine(db, organizationId, id)]);
  return line ?? fail('NOT_FOUND', LINE_NOT_FOUND);
}

async function getLine(db: Db, organizationId: number, id: number): Promise<BankTransactionRow> {
  return (await findTransactionRow(db, organizationId, id)) ?? fail('NOT_FOUND', LINE_NOT_FOUND);
}

/** Marks an expense paid by a debit: the whole expense, never a part (an expense has no partial payments). */
async function payExpense(trx: Db, organizationId: number, expenseId: number, amount: number, date: string) {
  await lockRow(trx, 'expenses', expenseId);
  const expense = await trx
    .selectFrom('expenses')
    .select(['id', 'amount', 'prepaid_amount', 'status', 'supplier'])
    .where('organization_id', '=', organizationId)
    .where('id', '=', expenseId)
    .executeTakeFirst();
  if (!expense) fail('NOT_FOUND', 'Dépense introuvable');
  if (expense.status === 'paid') fail('CONFLICT', `La dépense « ${expense.supplier} » est déjà payée`);
  // What the invoice says was paid before it is not asked of the bank again.
  const due = toStoredUnits(sub(fromStoredUnits(expense.amount), fromStoredUnits(expense.prepaid_amount)));
  if (due !== amount) fail('CONFLICT', `La dépense « ${expense.supplier} » se paie en entier : ${fromStoredUnits(due)} attendu`);
  await trx.updateTable('expenses').set({ status: 'paid', paid_at: date, updated_at: nowIso() }).where('id', '=', expenseId).execute();
}

/**
 * Confirms what a line paid, all of it or nothing: each invoice's payment (dated by the line, logged, the invoice's
 * balance and status following) or each expense marked paid. A line never pays more than its amount, an invoice more
 * than its balance (409, nothing recorded).
 */
export async function matchBankTransaction(
  db: Db,
  organizationId: number,
  id: number,
  matches: Target[],
  userId?: number,
): Promise<BankTransaction> {
  await recordMatches(db, organizationId, id, matches, userId);
  return getBankTransaction(db, organizationId, id);
}

/** The writes of a confirmation, without reading the line back (« Tout valider » confirms thousands). */
async function recordMatches(db: Db, organizationId: number, id: number, matches: Target[], userId?: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockRow(trx, 'bank_transactions', id);
    const line = await getLine(trx, organizationId, id);
    if (line.status === 'ignored') fail('CONFLICT', `Cette opération est ignorée (${line.ignore_reason}) : elle ne paie rien`);
    const credit = line.amount > 0;
    for (const match of matches) {
      if (credit && match.kind !== 'invoice') fail('CONFLICT', 'Un crédit paie des factures, pas des dépenses');
      if (!credit && match.kind !== 'expense') fail('CONFLICT', 'Un débit paie des dépenses, pas des factures');
    }
    const fees = matches.map((m) => toStoredUnits(m.fee ?? 0));
    for (const [index, match] of matches.entries()) {
      if ((fees[index] ?? 0) > 0 && match.kind !== 'invoice')
        fail('BAD_REQUEST', 'Des frais ne se déduisent que d’un encaissement de facture : une dépense se paie en entier');
      if ((fees[index] ?? 0) >= toStoredUnits(match.amount)) fail('BAD_REQUEST', 'Les frais doivent rester inférieurs au montant payé');
    }
    // The line carries what each document is paid less what was kept of it on the way.
    const units = matches.map((m, index) => toStoredUnits(sub(m.amount, fromStoredUnits(fees[index] ?? 0))));
    const total = units.reduce((a, b) => a + b, 0);
    const remaining = remainingOf(line);
    if (total > remaining) {
      const { currency_format } = await getAppSettings(trx, organizationId);
      const net = fees.some((f) => f > 0) ? ', frais déduits' : '';
      fail(
        'CONFLICT',
        `Le rapprochement (${formatMoney(fromStoredUnits(total), currency_format, line.currency)}${net}) dépasse ce qui reste de l’opération (${formatMoney(fromStoredUnits(remaining), currency_format, line.currency)})`,
      );
    }
    await assertSameCurrency(trx, organizationId, line, matches);
    const already = await trx.selectFrom('bank_matches').select(['kind', 'target_id']).where('transaction_id', '=', id).execute();
    const now = nowIso();
    for (const [index, match] of matches.entries()) {
      const amount = units[index] ?? 0;
      if (
        already.some((a) => a.kind === match.kind && a.target_id === match.id) ||
        matches.findIndex((m) => m.kind === match.kind && m.id === match.id) !== index
      )
        fail('CONFLICT', 'Cette opération est déjà rapprochée de ce document');
      let paymentId: number | null = null;
      if (match.kind === 'invoice') {
        const reference = (line.reference || line.label).slice(0, 120);
        const fee = fees[index] ?? 0;
        paymentId = await recordPaymentIn(
          trx,
          organizationId,
          match.id,
          { date: line.date, amount: match.amount, method: 'transfer', reference, note: 'Rapprochement bancaire' },
          userId,
          fee > 0 ? { fee, fee_currency: line.currency } : {},
        );
      } else await payExpense(trx, organizationId, match.id, amount, line.date);
      await trx
        .insertInto('bank_matches')
        .values({
          organization_id: organizationId,
          transaction_id: id,
          kind: match.kind,
          target_id: match.id,
          amount,
          payment_id: paymentId,
          created_at: now,
        })
        .execute();
    }
    const allocated = line.allocated + total;
    await trx
      .updateTable('bank_transactions')
      .set({ allocated, status: allocated === Math.abs(line.amount) ? 'matched' : line.status, updated_at: now })
      .where('id', '=', id)
      .execute();
  });
  // A payment in full may have queued « Encaissée » for the platform: sent now rather than at the outbox's next look.
  if (matches.some((m) => m.kind === 'invoice')) kickFlowOutboxes();
}

/** A line pays documents of its own currency only: a payment is recorded in the document's currency. */
async function assertSameCurrency(trx: Db, organizationId: number, line: BankTransactionRow, matches: Target[]) {
  const ids = (kind: MatchKind) => matches.filter((m) => m.kind === kind).map((m) => m.id);
  const [invoices, expenses] = await Promise.all([
    ids('invoice').length === 0
      ? []
      : trx
          .selectFrom('documents')
          .select(['number as label', 'currency'])
          .where('organization_id', '=', organizationId)
          .where('id', 'in', ids('invoice'))
          .execute(),
    ids('expense').length === 0
      ? []
      : trx
          .selectFrom('expenses')
          .select(['supplier as label', 'currency'])
          .where('organization_id', '=', organizationId)
          .where('id', 'in', ids('expense'))
          .execute(),
  ]);
  const other = [...invoices, ...expenses].find((d) => d.currency !== line.currency);
  if (other) fail('CONFLICT', `« ${other.label ?? ''} » est en ${other.currency}, l’opération en ${line.currency}`);
}

/** What a line could pay, found by hand: open invoices for a credit, unpaid expenses for a debit, of its currency. */
export async function matchCandidates(db: Db, organizationId: number, id: number, search: string): Promise<MatchCandidate[]> {
  const line = await getLine(db, organizationId, id);
  const params = { organizationId, currency: line.currency, search, limit: 20 };
  if (line.amount > 0)
    return (await searchOpenInvoices(db, params)).map((i) => ({
      kind: 'invoice' as const,
      id: i.id,
      label: `${i.number ?? ''} · ${i.customer_name}`,
      date: i.date,
      currency: i.currency,
      balance: fromStoredUnits(i.amount_due),
    }));
  return (await searchUnpaidExpenses(db, params)).map((e) => ({
    kind: 'expense' as const,
    id: e.id,
    label: `${e.supplier}${e.invoice_number ? ` · ${e.invoice_number}` : ''}`,
    date: e.date,
    currency: e.currency,
    balance: fromStoredUnits(Number(e.amount)),
  }));
}

/** Takes an ignored line back to the lines to match (an ignore decided by mistake). */
export async function unignoreBankTransaction(db: Db, organizationId: number, id: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockRow(trx, 'bank_transactions', id);
    const line = await getLine(trx, organizationId, id);
    if (line.status !== 'ignored') fail('CONFLICT', 'Cette opération n’est pas ignorée');
    // Back among the suggestions when something open matches it now, as an import would have filed it.
    const proposals = proposalsFor(await currentMatcher(trx, organizationId), { ...line, status: 'unmatched' });
    await trx
      .updateTable('bank_transactions')
      .set({ status: proposals.length > 0 ? 'suggested' : 'unmatched', ignore_reason: '', updated_at: nowIso() })
      .where('id', '=', id)
      .execute();
  });
}

export async function ignoreBankTransaction(db: Db, organizationId: number, id: number, reason: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await lockRow(trx, 'bank_transactions', id);
    const line = await getLine(trx, organizationId, id);
    if (line.allocated > 0) fail('CONFLICT', 'Cette opération a déjà payé des documents : elle ne peut plus être ignorée');
    await trx
      .updateTable('bank_transactions')
      .set({ status: 'ignored', ignore_reason: reason, updated_at: nowIso() })
      .where('id', '=', id)
      .execute();
  });
}

/**
 * « Tout valider »: every open line whose suggestions are all sure is confirmed, each in its own transaction. A document
 * that two lines would pay is left to the user on both (the one that pays it is a choice, not a certainty).
 */
export async function confirmSureMatches(db: Db, organizationId: number, accountId: number | undefined, userId?: number) {
  const matcher = await currentMatcher(db, organizationId);
  const candidates: { id: number; proposals: Proposal[] }[] = [];
  for (const status of ['suggested', 'unmatched'] as const) {
    for (let page = 1; ; page++) {
      await nextTurn();
      const { rows } = await listTransactionRows(db, { organizationId, accountId, status, offset: (page - 1) * 500, limit: 500 });
      for (const row of rows) {
        const proposals = proposalsFor(matcher, row);
        if (proposals.length > 0 && proposals.every((p) => p.confidence >= SURE)) candidates.push({ id: row.id, proposals });
      }
      if (rows.length < 500) break;
    }
  }
  const contested = contestedDocuments(candidates);
  let confirmed = 0;
  let skipped = 0;
  for (const c of candidates) {
    // Thousands of confirmations, each a few milliseconds of synchronous SQLite: the event loop serves others between.
    await nextTurn();
    if (c.proposals.some((p) => contested.has(`${p.kind}:${p.id}`))) {
      skipped++;
      continue;
    }
    await recordMatches(
      db,
      organizationId,
      c.id,
      c.proposals.map((p) => ({ kind: p.kind, id: p.id, amount: fromStoredUnits(p.amount), fee: fromStoredUnits(p.fee) })),
      userId,
    );
    confirmed++;
  }
  return { confirmed, skipped };
}
