import type { Kysely } from 'kysely';

/**
 * Two fields of a document the buyer's side of an invoice names (C. com. L441-9; the 2026 e-invoicing mentions): the
 * customer's purchase-order number (text, '' when none) and the document's own delivery address (JSON, null when it
 * is the billing address). Documents saved before kept no delivery address of their own: they printed their
 * customer's shipping address when it differed from the billing one, so that address becomes theirs — from the
 * customer snapshot of an issued document (what it printed), else from the customer as they are now.
 */
/** The columns this migration reads, as earlier migrations made them (never today's table types). */
interface TablesAt0013 {
  documents: {
    id: number;
    customer_id: number | null;
    customer_snapshot: string | null;
    purchase_order: string;
    delivery_address: string | null;
  };
  customers: { id: number; address: string; shipping: string };
}

interface LooseAddress {
  line1?: unknown;
  line2?: unknown;
  postal_code?: unknown;
  city?: unknown;
  country?: unknown;
}

const text = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : '');
const parse = (json: string | null | undefined): LooseAddress | null => {
  if (!json) return null;
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' ? value : null;
  } catch {
    return null;
  }
};
/** The rule documents printed by until now: a shipping address filled and different from the billing address. */
const distinct = (billing: LooseAddress | null | undefined, shipping: LooseAddress | null | undefined) =>
  Boolean(shipping && text(shipping.line1) && text(shipping.postal_code) && text(shipping.city)) &&
  !(['line1', 'line2', 'postal_code', 'city', 'country'] as const).every((k) => text(billing?.[k]) === text(shipping?.[k]));

export async function up(db: Kysely<TablesAt0013>): Promise<void> {
  await db.schema
    .alterTable('documents')
    .addColumn('purchase_order', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.alterTable('documents').addColumn('delivery_address', 'text').execute();

  const documents = await db.selectFrom('documents').select(['id', 'customer_id', 'customer_snapshot']).execute();
  const customers = new Map(
    (await db.selectFrom('customers').select(['id', 'address', 'shipping']).execute()).map((c) => [c.id, c] as const),
  );
  for (const doc of documents) {
    const snapshot = parse(doc.customer_snapshot) as { address?: LooseAddress; shipping?: LooseAddress } | null;
    const customer = doc.customer_id === null ? undefined : customers.get(doc.customer_id);
    const [billing, shipping] = snapshot ? [snapshot.address, snapshot.shipping] : [parse(customer?.address), parse(customer?.shipping)];
    if (!distinct(billing, shipping)) continue;
    await db
      .updateTable('documents')
      .set({ delivery_address: JSON.stringify(shipping) })
      .where('id', '=', doc.id)
      .execute();
  }
}
