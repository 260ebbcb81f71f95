import type { Db } from '../db/connection';
import {
  allExpenseOwners,
  allSaleOwners,
  claimStaleVatLedger,
  clearVatLedger,
  deleteVatLedgerOwners,
  hasStaleVatLedger,
  insertVatLedgerRows,
  saleOwnersAmong,
  type VatLedgerRow,
  writeVatLedgerDays,
} from '../db/queries/vat-ledger';
import { vatExpensesOf, vatSalesOf } from '../db/queries/vat-return';
import { toStoredUnits } from '../../shared/money';
import { expenseMovements, saleMovements, type VatMovement } from '../../shared/vat-return/ledger';
import type { VatBasis } from '../../shared/vat-return/sales';
import { getOrganizationProfile } from './organization';
import { converter } from './report-currency';
import { toPurchaseExpense, toSaleDocuments } from './vat-return';

/**
 * Keeps the VAT ledger (migration 0069) equal to what the engine says. Triggers mark the owners a write makes stale,
 * in the write's transaction; a return first recomputes those (one invoice with its credit notes, one expense: a few
 * milliseconds), or the whole organisation when a setting the whole return reads has changed.
 */

const LAST_DAY = '9999-12-31';
/** Owners recomputed per batch of a rebuild: the memory of a few thousand documents, not of a million. */
const BATCH = 2000;

/** Brings the organisation's ledger up to date; nothing to do (one indexed read) when no write made it stale. */
export async function refreshVatLedger(db: Db, organizationId: number): Promise<void> {
  if (!(await hasStaleVatLedger(db, organizationId))) return;
  await db.transaction().execute(async (trx) => {
    const claimed = await claimStaleVatLedger(trx, organizationId);
    if (claimed.length === 0) return;
    if (claimed.some((c) => c.owner === 'organization')) return writeWholeLedger(trx, organizationId);
    const context = await ledgerContext(trx, organizationId);
    const of = (owner: string) => claimed.filter((c) => c.owner === owner).map((c) => c.id);
    const dates = [
      ...(await rewriteSales(trx, organizationId, of('sale'), context)),
      ...(await rewriteExpenses(trx, organizationId, of('expense'), context)),
    ];
    await writeVatLedgerDays(trx, { organizationId, dates: [...new Set(dates)] });
  });
}

/** Rewrites the organisation's ledger from scratch (`npm run summaries:rebuild`), in one transaction. */
export async function rebuildVatLedger(db: Db, organizationId: number): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await claimStaleVatLedger(trx, organizationId);
    await writeWholeLedger(trx, organizationId);
  });
}

interface LedgerContext {
  basis: VatBasis;
  base: string;
  rateOf: (row: { currency: string; rate: string | null }) => Promise<string>;
}

async function ledgerContext(db: Db, organizationId: number): Promise<LedgerContext> {
  const [{ base, rateOf }, org] = await Promise.all([converter(db, organizationId), getOrganizationProfile(db, organizationId)]);
  return { basis: org.vat_on_debits ? 'debits' : 'receipts', base, rateOf };
}

async function writeWholeLedger(trx: Db, organizationId: number): Promise<void> {
  await clearVatLedger(trx, organizationId);
  const context = await ledgerContext(trx, organizationId);
  const sales = await allSaleOwners(trx, organizationId);
  for (let i = 0; i < sales.length; i += BATCH)
    await insertVatLedgerRows(trx, await saleRows(trx, organizationId, sales.slice(i, i + BATCH), context));
  const expenses = await allExpenseOwners(trx, organizationId);
  for (let i = 0; i < expenses.length; i += BATCH)
    await insertVatLedgerRows(trx, await expenseRows(trx, organizationId, expenses.slice(i, i + BATCH), context));
  await writeVatLedgerDays(trx, { organizationId });
}

/** Replaces the rows of the sales marked (each a document whose owner may be itself); answers the days that moved. */
async function rewriteSales(trx: Db, organizationId: number, marked: number[], context: LedgerContext): Promise<string[]> {
  if (marked.length === 0) return [];
  // A document marked may have stopped being an owner (a draft deleted, a credit note now on an invoice): its rows go.
  const removed = await deleteVatLedgerOwners(trx, { organizationId, owner: 'sale', ids: marked });
  const rows = await saleRows(trx, organizationId, await saleOwnersAmong(trx, { organizationId, ids: marked }), context);
  await insertVatLedgerRows(trx, rows);
  return [...removed, ...rows.map((r) => r.date)];
}

async function rewriteExpenses(trx: Db, organizationId: number, marked: number[], context: LedgerContext): Promise<string[]> {
  if (marked.length === 0) return [];
  const removed = await deleteVatLedgerOwners(trx, { organizationId, owner: 'expense', ids: marked });
  const rows = await expenseRows(trx, organizationId, marked, context);
  await insertVatLedgerRows(trx, rows);
  return [...removed, ...rows.map((r) => r.date)];
}

/** The engine's movements of these sale owners, each with its credit notes and the deposits it deducts. */
async function saleRows(db: Db, organizationId: number, owners: readonly number[], context: LedgerContext): Promise<VatLedgerRow[]> {
  if (owners.length === 0) return [];
  const documents = await toSaleDocuments(await vatSalesOf(db, { organizationId, ids: owners, to: LAST_DAY }), context.rateOf);
  const byId = new Map(documents.map((d) => [d.id, d]));
  const related = new Map<number, typeof documents>();
  for (const d of documents)
    for (const parent of [d.correctsId, d.deductedById]) if (parent !== null) related.set(parent, [...(related.get(parent) ?? []), d]);
  const rows: VatLedgerRow[] = [];
  for (const id of owners) {
    const owner = byId.get(id);
    if (!owner) continue;
    // A credit note on no invoice of the organisation stands alone.
    const family = owner.type === 'credit' ? [owner] : [owner, ...(related.get(id) ?? [])];
    for (const m of saleMovements(owner, family, context.basis)) rows.push(rowOf(organizationId, 'sale', id, m));
  }
  return rows;
}

async function expenseRows(db: Db, organizationId: number, ids: readonly number[], context: LedgerContext): Promise<VatLedgerRow[]> {
  const expenses = (await vatExpensesOf(db, { organizationId, ids, currency: context.base })).map(toPurchaseExpense);
  return expenses.flatMap((e) => expenseMovements(e).map((m) => rowOf(organizationId, 'expense', e.id, m)));
}

const rowOf = (organizationId: number, owner: 'sale' | 'expense', ownerId: number, m: VatMovement): VatLedgerRow => ({
  organization_id: organizationId,
  owner,
  owner_id: ownerId,
  source: m.source,
  item_id: m.id,
  date: m.date,
  line: m.line,
  nature: m.nature,
  rate: m.rate,
  reverse_charge: m.reverseCharge ?? '',
  base: toStoredUnits(m.base),
  tax: toStoredUnits(m.tax),
});
