import type { MigrationDb } from './helpers';
import { withId } from './helpers';

/**
 * Where a credit note's amount went: set against the invoice it corrects, against another open invoice of the same
 * customer (`invoice_id`), or refunded (`invoice_id` null, with the refund's `method` and `date`). Rows are only ever
 * inserted; what a credit note has left is its total less its rows. `amount` is positive, in ten-thousandths like every
 * stored amount.
 *
 * Credit notes issued before: each is set against the invoice it corrects for what was still open on it, oldest first
 * (what it exceeds stays available, to refund or to set against another invoice), and those invoices' amount due is
 * recomputed from it, so that none shows a negative amount due any more.
 */
export async function up(db: MigrationDb): Promise<void> {
  await withId(db.schema.createTable('credit_allocations'))
    .addColumn('organization_id', 'integer', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('credit_id', 'integer', (c) => c.notNull().references('documents.id').onDelete('cascade'))
    .addColumn('invoice_id', 'integer', (c) => c.references('documents.id').onDelete('cascade'))
    .addColumn('amount', 'integer', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('date', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('credit_allocations_credit').on('credit_allocations').columns(['credit_id']).execute();
  await db.schema.createIndex('credit_allocations_invoice').on('credit_allocations').columns(['invoice_id']).execute();

  const credits = await db
    .selectFrom('documents')
    .select(['id', 'organization_id', 'corrects_id', 'total', 'date'])
    .where('type', '=', 'credit')
    .where('number', 'is not', null)
    .where('corrects_id', 'is not', null)
    .orderBy('date')
    .orderBy('id')
    .execute();
  const open = new Map<number, number>();
  const now = new Date().toISOString();
  for (const credit of credits) {
    const invoiceId = Number(credit.corrects_id);
    if (!open.has(invoiceId)) {
      const invoice = await db.selectFrom('documents').select(['total', 'deposits', 'paid']).where('id', '=', invoiceId).executeTakeFirst();
      if (!invoice) continue;
      open.set(invoiceId, Number(invoice.total) - Number(invoice.deposits) - Number(invoice.paid));
    }
    const left = open.get(invoiceId) ?? 0;
    const amount = Math.min(Number(credit.total), Math.max(left, 0));
    if (amount <= 0) continue;
    open.set(invoiceId, left - amount);
    await db
      .insertInto('credit_allocations')
      .values({
        organization_id: Number(credit.organization_id),
        credit_id: Number(credit.id),
        invoice_id: invoiceId,
        amount,
        method: '',
        date: String(credit.date),
        created_at: now,
      })
      .execute();
  }
  for (const [invoiceId, left] of open) {
    await db
      .updateTable('documents')
      .set({ amount_due: Math.max(left, 0) })
      .where('id', '=', invoiceId)
      .execute();
  }
}

export async function down(db: MigrationDb): Promise<void> {
  // The amounts due it recomputed stay as they are: they were right, and the code before it reads them as it wrote them.
  await db.schema.dropTable('credit_allocations').execute();
}
