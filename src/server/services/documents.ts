import { randomUUID } from 'node:crypto';
import { byType, DOCUMENT_TYPE_TABLE } from '../../shared/document-types';
import type { Db } from '../db/connection';
import type { DocumentForm, DocumentType } from '../../shared/schemas/document';
import { effectiveStatus, isEditable, isLegalRecord, type StoredStatus } from '../../shared/document-status';
import { statusLabel, TYPE_LABELS } from '../../shared/status';
import { fail } from '../errors';
import { nowIso } from '../clock';
import {
  claimDeposits,
  deleteDocumentRow,
  findDeductedDeposits,
  findDocumentItems,
  findDocumentRow,
  findDocumentSummary,
  findLinkedDocuments,
  findOpenDeposits,
  insertDocument,
  replaceDocumentItems,
  sumIssuedCredits,
  updateDocument,
  type DocumentRow,
} from '../db/queries/documents';
import { findCustomer, type CustomerRecord } from '../db/queries/customers';
import { sumPayments } from '../db/queries/payments';
import { removeSearchEntry, upsertSearchEntry } from '../db/queries/search';
import { getAppSettings } from './settings';
import { assertCurrencyEnabled } from './currencies';
import { formColumns, formOfRow, fromUnits4, linkedOf, rowsOfItems, todayIso, totalColumns, totalsOf } from './document-record';
import type { MentionCustomer } from '../../shared/legal-mentions';

export const DOCUMENT_NOT_FOUND = 'Document introuvable';

/** French names of the types, for messages ("cette facture", "ce devis"): read off the one table. */
export const TYPE_NAMES: Record<DocumentType, { the: string; a: string }> = byType((t) => ({ the: t.the, a: t.article }));

export async function getDocumentRow(db: Db, organizationId: number, id: number): Promise<DocumentRow> {
  const row = await findDocumentRow(db, { organizationId, id });
  if (!row) fail('NOT_FOUND', DOCUMENT_NOT_FOUND); // another organisation's id answers the same
  return row!;
}

/** The customer fields a document shows (and keeps, once issued). */
export const customerSnapshotOf = (
  c: CustomerRecord,
): MentionCustomer & { id: number; number: string; email: string; legal_name: string } => ({
  id: c.id,
  number: c.number,
  type: c.type,
  name: c.name,
  legal_name: c.legal_name,
  email: c.email,
  business_id: c.business_id,
  vat_number: c.vat_number,
  address: c.address,
  shipping: c.shipping,
});

/** The document a conversion starts from, and that one's own origin, and so on (estimate → order → invoice). */
export async function originChain(db: Db, organizationId: number, originId: number | null): Promise<number[]> {
  const chain: number[] = [];
  for (let id = originId; id && chain.length < 5 && !chain.includes(id); ) {
    chain.push(id);
    id = (await findDocumentSummary(db, { organizationId, id }))?.origin_id ?? null;
  }
  return chain;
}

/** The deposit invoices a final invoice deducts: claimed by it when it was made from their estimate or order. */
export async function depositsFor(db: Db, organizationId: number, row: Pick<DocumentRow, 'id' | 'type' | 'kind'>) {
  if (row.type !== 'invoice' || row.kind === 'deposit') return [];
  const found = await findDeductedDeposits(db, { organizationId, invoiceId: row.id });
  return found.map((d) => ({ id: d.id, number: d.number, date: d.date, total: fromUnits4(d.total) }));
}

export const STALE = 'Ce document vient d’être modifié par ailleurs : rechargez-le, puis recommencez';
/** Far below where exact integer arithmetic on stored amounts (scale 4) would end. */
const MAX_TOTAL = 1e11;
function assertReasonable(totals: { total: number; subtotal: number }): void {
  if (Math.abs(totals.total) > MAX_TOTAL || Math.abs(totals.subtotal) > MAX_TOTAL)
    fail('BAD_REQUEST', 'Total : il dépasse 100 milliards, vérifiez les quantités et les prix');
}

/** The document as the API answers it: the form's fields, each line with its computed amounts, every total, the links. */
export async function getDocument(db: Db, organizationId: number, id: number) {
  const row = await getDocumentRow(db, organizationId, id);
  const [items, linked, origin, corrects, deposits, credited] = await Promise.all([
    findDocumentItems(db, { documentId: id }),
    findLinkedDocuments(db, { organizationId, id }),
    row.origin_id ? findDocumentSummary(db, { organizationId, id: row.origin_id }) : undefined,
    row.corrects_id ? findDocumentSummary(db, { organizationId, id: row.corrects_id }) : undefined,
    depositsFor(db, organizationId, row),
    row.type === 'invoice' ? sumIssuedCredits(db, { organizationId, invoiceId: id }) : 0,
  ]);
  const form = formOfRow(row, items);
  const totals = totalsOf(
    form,
    deposits.map((d) => d.total),
    fromUnits4(row.paid),
  );
  const customer = row.customer_snapshot
    ? JSON.parse(row.customer_snapshot)
    : row.customer_id
      ? await findCustomer(db, { organizationId, id: row.customer_id }).then((c) => (c ? customerSnapshotOf(c) : null))
      : null;
  return {
    id: row.id,
    ...form,
    kind: row.kind,
    status: effectiveStatus({ type: row.type, status: row.status as StoredStatus, maturity: row.maturity }, todayIso()),
    stored_status: row.status as StoredStatus,
    number: row.number,
    uuid: row.uuid,
    customer,
    organization: row.seller_snapshot ? JSON.parse(row.seller_snapshot) : null,
    items: form.items.map((item, i) => ({ ...item, ...totals.lines[i]! })),
    subtotal: totals.subtotal,
    discount: totals.discount,
    taxes: totals.taxes,
    tax: totals.tax,
    shipping: totals.shipping,
    total: totals.total,
    deposits: totals.deposits,
    deposit_invoices: deposits,
    paid: fromUnits4(row.paid),
    // Issued credit notes on this invoice: what is left to pay accounts for them (see refreshInvoiceBalance).
    credited: fromUnits4(credited),
    amount_due: fromUnits4(row.amount_due),
    legal_mentions: JSON.parse(row.legal_mentions) as string[],
    origin: origin ? linkedOf(origin) : null,
    corrects: corrects ? linkedOf(corrects) : null,
    linked: linked.map(linkedOf),
    issued_at: row.issued_at,
    sent_at: row.sent_at,
    viewed_at: row.viewed_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
export type DocumentRecord = Awaited<ReturnType<typeof getDocument>>;

/** A live customer of this organisation, or a 400 naming the field. */
async function checkCustomer(db: Db, organizationId: number, customerId: number | null | undefined): Promise<CustomerRecord | null> {
  if (!customerId) return null;
  const customer = await findCustomer(db, { organizationId, id: customerId });
  if (!customer) fail('BAD_REQUEST', 'Client : introuvable');
  if (customer!.deleted_at) fail('BAD_REQUEST', 'Client : ce client est archivé, restaurez-le pour lui établir un document');
  return customer!;
}

const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

/** Maturity when the form leaves it out: the customer's payment days, else the organisation's (C. com. L441-10). */
async function withDefaults(db: Db, organizationId: number, form: DocumentForm, customer: CustomerRecord | null): Promise<DocumentForm> {
  if (form.maturity !== undefined) {
    if (form.maturity && form.maturity < form.date)
      fail('BAD_REQUEST', `${DOCUMENT_TYPE_TABLE[form.type].maturityName} : elle ne peut précéder la date du document`);
    return form;
  }
  const days = customer?.maturity ?? (await getAppSettings(db, organizationId)).payment_days;
  return { ...form, maturity: addDays(form.date, days) };
}

export async function indexDocument(db: Db, organizationId: number, id: number): Promise<void> {
  const row = await findDocumentRow(db, { organizationId, id });
  if (!row) return removeSearchEntry(db, { organizationId, kind: 'document', refId: id });
  await upsertSearchEntry(db, {
    organizationId,
    kind: 'document',
    refId: id,
    title: row.number ?? `${statusLabel('draft')} (${TYPE_LABELS[row.type].one})`,
    subtitle: [row.number ? TYPE_LABELS[row.type].one : '', row.customer_name].filter(Boolean).join(' · '),
    body: [row.customer_name, row.date, TYPE_LABELS[row.type].one].join(' '),
  });
}

interface SaveOptions {
  kind?: 'standard' | 'deposit';
  originId?: number | null;
  correctsId?: number | null;
}

/**
 * A new draft: no number yet (it is taken at issue), totals computed here from the lines. A final invoice made from
 * an estimate or order claims, in the same transaction, the deposit invoices issued on it, and deducts them.
 */
export async function createDocument(
  db: Db,
  organizationId: number,
  input: DocumentForm,
  options: SaveOptions = {},
): Promise<DocumentRecord> {
  const customer = await checkCustomer(db, organizationId, input.customer_id);
  await assertCurrencyEnabled(db, organizationId, input.currency);
  const form = await withDefaults(db, organizationId, input, customer);
  const kind = options.kind ?? 'standard';
  const chain = form.type === 'invoice' && kind === 'standard' ? await originChain(db, organizationId, options.originId ?? null) : [];
  const now = nowIso();
  const id = await db.transaction().execute(async (trx) => {
    const open = await findOpenDeposits(trx, { organizationId, originIds: chain });
    if (open.some((d) => d.number === null))
      fail('CONFLICT', 'Une facture d’acompte en brouillon attend sur ce document : émettez-la ou supprimez-la d’abord');
    const totals = totalsOf(
      form,
      open.map((d) => fromUnits4(d.total)),
      0,
    );
    assertReasonable(totals);
    const newId = await insertDocument(trx, {
      organization_id: organizationId,
      ...formColumns(form),
      ...totalColumns(totals),
      kind,
      status: 'draft',
      number: null,
      counter: null,
      uuid: randomUUID(),
      customer_name: customer?.name ?? '',
      origin_id: options.originId ?? null,
      corrects_id: options.correctsId ?? null,
      deducted_by_id: null,
      seller_snapshot: null,
      customer_snapshot: null,
      legal_mentions: '[]',
      issued_at: null,
      sent_at: null,
      viewed_at: null,
      created_at: now,
      updated_at: now,
    });
    await replaceDocumentItems(trx, { documentId: newId, items: rowsOfItems(form.items) });
    await claimDeposits(trx, { organizationId, depositIds: open.map((d) => d.id), invoiceId: newId });
    return newId;
  });
  await indexDocument(db, organizationId, id);
  return getDocument(db, organizationId, id);
}

/** Only drafts, and issued documents that are not legal records while still pending, can be edited. */
function assertEditable(row: DocumentRow): void {
  const name = TYPE_NAMES[row.type];
  if (isEditable(row.type, row.status)) return;
  if (isLegalRecord(row.type)) {
    fail(
      'CONFLICT',
      row.type === 'invoice'
        ? 'Une facture émise ne se modifie plus (CGI art. 242 nonies A) : corrigez-la par un avoir'
        : 'Un avoir émis ne se modifie plus',
    );
  }
  fail('CONFLICT', `${name.the.charAt(0).toUpperCase()}${name.the.slice(1)} est « ${statusLabel(row.status)} » : il ne se modifie plus`);
}

export async function editDocument(db: Db, organizationId: number, id: number, input: DocumentForm): Promise<DocumentRecord> {
  const row = await getDocumentRow(db, organizationId, id);
  assertEditable(row);
  if (input.type !== row.type) fail('BAD_REQUEST', `Type : ${TYPE_NAMES[row.type].the} ne change pas de type, convertissez-le plutôt`);
  // A credit note stays on the invoice it corrects, a deposit on what it pays for: same customer, currency, price mode.
  if (row.corrects_id || row.kind === 'deposit') {
    if ((input.customer_id ?? null) !== row.customer_id)
      fail('BAD_REQUEST', 'Client : il est celui du document d’origine et ne change pas');
    if (input.currency !== row.currency) fail('BAD_REQUEST', 'Devise : elle est celle du document d’origine et ne change pas');
    if (input.price_mode !== row.price_mode) fail('BAD_REQUEST', 'Prix saisis : ils suivent le document d’origine');
  }
  const customer = await checkCustomer(db, organizationId, input.customer_id);
  if (input.currency !== row.currency) await assertCurrencyEnabled(db, organizationId, input.currency);
  const form = await withDefaults(db, organizationId, input, customer);
  const deposits = await depositsFor(db, organizationId, row);
  const paid = await sumPayments(db, { organizationId, documentId: id });
  const totals = totalsOf(
    form,
    deposits.map((d) => d.total),
    fromUnits4(paid),
  );
  assertReasonable(totals);
  await db.transaction().execute(async (trx) => {
    const changed = await updateDocument(trx, {
      organizationId,
      id,
      expected: { status: row.status, updated_at: row.updated_at },
      changes: {
        ...formColumns(form),
        ...totalColumns(totals),
        customer_name: customer?.name ?? '',
        // A pending estimate, order… edited after issue shows the customer it now names.
        ...(row.status !== 'draft' ? { customer_snapshot: customer ? JSON.stringify(customerSnapshotOf(customer)) : null } : {}),
        updated_at: nowIso(),
      },
    });
    if (changed === 0) fail('CONFLICT', STALE);
    await replaceDocumentItems(trx, { documentId: id, items: rowsOfItems(form.items) });
  });
  await indexDocument(db, organizationId, id);
  return getDocument(db, organizationId, id);
}

/** Drafts go; issued invoices and credit notes stay forever (corrected by a credit note); others go unless linked. */
export async function removeDocument(db: Db, organizationId: number, id: number): Promise<void> {
  const row = await getDocumentRow(db, organizationId, id);
  if (row.status !== 'draft' && isLegalRecord(row.type)) {
    fail(
      'CONFLICT',
      row.type === 'invoice'
        ? 'Une facture émise ne peut être supprimée (CGI art. 242 nonies A) : annulez-la par un avoir'
        : 'Un avoir émis ne peut être supprimé',
    );
  }
  const linked = await findLinkedDocuments(db, { organizationId, id });
  if (linked.length > 0) {
    const names = linked.map((l) => l.number ?? 'brouillon').join(', ');
    fail('CONFLICT', `D’autres documents en sont issus (${names}) : supprimez-les d’abord`);
  }
  // Only as it was read: an issue that landed meanwhile wins, and the number it took is never lost.
  if ((await deleteDocumentRow(db, { organizationId, id, expected: { status: row.status, updated_at: row.updated_at } })) === 0)
    fail('CONFLICT', STALE);
  await removeSearchEntry(db, { organizationId, kind: 'document', refId: id });
}
