import type { Kysely } from 'kysely';
import { computeTotals } from '../../../shared/totals';
import { currencyPrecision } from '../../../shared/currencies';

/**
 * Each line keeps its computed amounts (price, net_price, subtotal, discount, gross_total, tax, total: JSON in major
 * units), written with the document's totals at each save: a document is read back, never recomputed, and an issued
 * one shows exactly what was issued. Lines saved before this migration get their amounts computed once, here, from
 * their stored inputs with the same shared core that computed their document's stored totals.
 */
/** The columns this migration reads, as migration 0007 made them (never today's table types). */
interface TablesAt0007 {
  documents: {
    id: number;
    discount_type: 'percent' | 'amount' | null;
    discount_value: string | null;
    shipping_fee: string;
    price_mode: 'ht' | 'ttc';
    currency: string;
  };
  document_items: {
    id: number;
    document_id: number;
    position: number;
    quantity: string;
    unit_price: string;
    discount_type: 'percent' | 'amount';
    discount_value: string;
    taxes: string;
    amounts: string | null;
  };
}

export async function up(db: Kysely<TablesAt0007>): Promise<void> {
  await db.schema.alterTable('document_items').addColumn('amounts', 'text').execute();
  const documents = await db
    .selectFrom('documents')
    .select(['id', 'discount_type', 'discount_value', 'shipping_fee', 'price_mode', 'currency'])
    .execute();
  for (const doc of documents) {
    const items = await db
      .selectFrom('document_items')
      .select(['id', 'quantity', 'unit_price', 'discount_type', 'discount_value', 'taxes'])
      .where('document_id', '=', doc.id)
      .orderBy('position')
      .execute();
    if (items.length === 0) continue;
    const totals = computeTotals({
      items: items.map((i) => ({
        quantity: i.quantity,
        unit_price: i.unit_price,
        discount_type: i.discount_type,
        discount_value: i.discount_value,
        taxes: JSON.parse(i.taxes),
      })),
      discount_type: doc.discount_type,
      discount_value: doc.discount_value,
      shipping: doc.shipping_fee,
      price_mode: doc.price_mode,
      precision: currencyPrecision(doc.currency),
    });
    for (const [k, item] of items.entries()) {
      await db
        .updateTable('document_items')
        .set({ amounts: JSON.stringify(totals.lines[k]) })
        .where('id', '=', item.id)
        .execute();
    }
  }
}
