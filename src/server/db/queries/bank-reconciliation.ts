import type { Db } from '../connection';

/**
 * What a reconciliation reads: an account's statement lines up to a date with what each put in the books, and the
 * movements the books hold that no statement line carries. Amounts in ten-thousandths.
 */

/** An account's lines up to `until` (booking date), each with what the books still hold of what it paid. */
export async function linesWithBooked(db: Db, params: { organizationId: number; accountId: number; until: string }) {
  const lines = await db
    .selectFrom('bank_transactions')
    .select(['id', 'date', 'label', 'amount', 'status', 'ignore_reason'])
    .where('organization_id', '=', params.organizationId)
    .where('account_id', '=', params.accountId)
    .where('date', '<=', params.until)
    .orderBy('date')
    .orderBy('id')
    .execute();
  // A payment corrected since (a counter-entry reverses it) is no longer in the books: its line is again to book.
  const matches = await db
    .selectFrom('bank_matches as m')
    .innerJoin('bank_transactions as t', 't.id', 'm.transaction_id')
    .leftJoin('payments as p', 'p.id', 'm.payment_id')
    .leftJoin('expenses as e', (join) => join.onRef('e.id', '=', 'm.target_id').on('m.kind', '=', 'expense'))
    .select((eb) => [
      'm.transaction_id',
      'm.kind',
      'm.amount',
      'p.amount as payment_amount',
      'e.status as expense_status',
      eb
        .selectFrom('payments as r')
        .whereRef('r.reverses_id', '=', 'p.id')
        .select((inner) => inner.fn.countAll<number>().as('n'))
        .as('reversals'),
    ])
    .where('t.organization_id', '=', params.organizationId)
    .where('t.account_id', '=', params.accountId)
    .where('t.date', '<=', params.until)
    .execute();
  const booked = new Map<number, number>();
  for (const m of matches) {
    const held =
      m.kind === 'invoice'
        ? Number(m.reversals ?? 0) > 0 || m.payment_amount === null
          ? 0
          : // The line's share: a fee kept on the way never reached the account.
            Number(m.amount)
        : m.expense_status === 'paid'
          ? Number(m.amount)
          : 0;
    booked.set(m.transaction_id, (booked.get(m.transaction_id) ?? 0) + held);
  }
  return lines.map((line) => ({ ...line, booked: booked.get(line.id) ?? 0 }));
}

/**
 * Payments received and expenses paid in the books between two dates, through the bank (not in cash), that no
 * statement line is linked to: typed by hand, or not on a statement yet. Invoice payments and their counter-entries
 * are both movements; a payment reversed and its reversal cancel out, so neither is listed.
 */
export async function unlinkedBookMovements(db: Db, params: { organizationId: number; currency: string; from: string; until: string }) {
  const payments = await db
    .selectFrom('payments as p')
    .innerJoin('documents as d', 'd.id', 'p.document_id')
    .select(['p.id', 'p.date', 'p.amount', 'p.method', 'd.id as document_id', 'd.number', 'd.customer_name'])
    .where('p.organization_id', '=', params.organizationId)
    .where('d.currency', '=', params.currency)
    .where('p.method', '!=', 'cash')
    .where('p.date', '>=', params.from)
    .where('p.date', '<=', params.until)
    .where('p.reverses_id', 'is', null)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('payments as r').select('r.id').whereRef('r.reverses_id', '=', 'p.id'))))
    .where((eb) => eb.not(eb.exists(eb.selectFrom('bank_matches as m').select('m.id').whereRef('m.payment_id', '=', 'p.id'))))
    .orderBy('p.date')
    .orderBy('p.id')
    .execute();
  const expenses = await db
    .selectFrom('expenses as e')
    .select(['e.id', 'e.paid_at', 'e.amount', 'e.supplier', 'e.invoice_number'])
    .where('e.organization_id', '=', params.organizationId)
    .where('e.currency', '=', params.currency)
    .where('e.status', '=', 'paid')
    .where('e.payment_method', '!=', 'cash')
    .where('e.paid_at', '>=', params.from)
    .where('e.paid_at', '<=', params.until)
    .where((eb) =>
      eb.not(
        eb.exists(eb.selectFrom('bank_matches as m').select('m.id').where('m.kind', '=', 'expense').whereRef('m.target_id', '=', 'e.id')),
      ),
    )
    .orderBy('e.paid_at')
    .orderBy('e.id')
    .execute();
  return { payments, expenses };
}
