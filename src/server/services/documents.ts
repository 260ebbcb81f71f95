import { invoiceReference } from '../../shared/creditor-reference';
import { randomUUID } from 'node:crypto';
import { DOCUMENT_TYPE_TABLE } from '../../shared/document-types';
import type { Db } from '../db/connection';
import { DOCUMENT_MODIFIED, type DocumentForm, type DocumentUpdate } from '../../shared/schemas/document';
import type { DocumentAnswer, OperationNature, StoredDocument } from '../../shared/schemas/document-model';
import { operationNature } from '../../shared/legal-mentions';
import { effectiveStatus, hasEinvoice, isEditable } from '../../shared/document-status';
import { statusLabel, TYPE_LABELS } from '../../shared/status';
import { capitalize } from '../../shared/format';
import { fail, failField } from '../errors';
import { nowIso } from '../clock';
import { deleteDocumentRow, findDocument, insertDocument, updateDocument } from '../db/queries/documents';
import {
  claimDeposits,
  findDeductedDeposits,
  findDocumentSummary,
  findLinkedDocuments,
  findOpenDeposits,
} from '../db/queries/document-lists';
import type { DocumentContent } from '../db/queries/document-mapping';
import { findCustomer } from '../db/queries/customers';
import { fromStoredUnits } from '../../shared/money';
import { sumPayments } from '../db/queries/payments';
import { sumAllocatedToInvoice } from '../db/queries/credit-allocations';
import { creditSettlementOf } from './credit-settlement';
import { removeSearchEntry, type SearchEntry, upsertSearchEntry } from '../db/queries/search';
import { assertCurrencyEnabled } from './currencies';
import { laterThan, todayIso } from './document-record';
import { documentSave } from '../../shared/document-save';
import { checkCustomer, checkOrder, checkTaxRules, customerSnapshotOf, withDefaults } from './document-defaults';
import { sameRate } from '../../shared/exchange';
import { getAppSettings } from './settings';
import { documentEinvoice } from './einvoice-transmission';

export const DOCUMENT_NOT_FOUND = 'Document introuvable';

/** A stored document of this organisation, or a 404 (another organisation's id answers the same). */
export async function getStoredDocument(db: Db, organizationId: number, id: number): Promise<StoredDocument> {
  const doc = await findDocument(db, { organizationId, id });
  if (!doc) return fail('NOT_FOUND', DOCUMENT_NOT_FOUND);
  return doc;
}

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
export async function depositsFor(db: Db, organizationId: number, doc: Pick<StoredDocument, 'id' | 'type' | 'kind'>) {
  if (doc.type !== 'invoice' || doc.kind === 'deposit') return [];
  return findDeductedDeposits(db, { organizationId, invoiceId: doc.id });
}

export const STALE = 'Ce document vient d’être modifié par ailleurs : rechargez-le, puis recommencez';
/** Far below where exact integer arithmetic on stored amounts (scale 4) would end. */
const MAX_TOTAL = 1e11;

/**
 * What a save writes (shared/document-save.ts, the one computation of a write, which the editors and the preview
 * show): what is stored here is what every later read answers.
 */
export function contentOf(form: DocumentForm, deposits: number[], paid: number, vat: boolean): DocumentContent {
  const content = documentSave(form, { vat, deposits, paid });
  if (Math.abs(content.totals.total) > MAX_TOTAL || Math.abs(content.totals.subtotal) > MAX_TOTAL)
    fail('BAD_REQUEST', 'Total : il dépasse 100 milliards, vérifiez les quantités et les prix');
  return content;
}

/**
 * Goods, services or both: what the lines sell. A deposit invoice's lines only say "Acompte": its nature is that of
 * the estimate or order it is paid on (CGI art. 242 nonies A, 2026 mention "nature de l'opération").
 */
export async function documentNature(
  db: Db,
  organizationId: number,
  doc: Pick<StoredDocument, 'kind' | 'origin_id' | 'items'>,
): Promise<OperationNature> {
  const origin = doc.kind === 'deposit' && doc.origin_id ? await findDocument(db, { organizationId, id: doc.origin_id }) : undefined;
  return operationNature(origin?.items ?? doc.items);
}

/** The document as the API answers it: the stored document, its displayed status, what is left to pay, the links. */
export async function getDocument(db: Db, organizationId: number, id: number): Promise<DocumentAnswer> {
  const doc = await getStoredDocument(db, organizationId, id);
  const submitted = hasEinvoice(doc.type) && doc.status !== 'draft';
  const [linked, origin, corrects, deposits, credited, customer, nature, einvoice] = await Promise.all([
    findLinkedDocuments(db, { organizationId, id }),
    doc.origin_id ? findDocumentSummary(db, { organizationId, id: doc.origin_id }) : undefined,
    doc.corrects_id ? findDocumentSummary(db, { organizationId, id: doc.corrects_id }) : undefined,
    depositsFor(db, organizationId, doc),
    DOCUMENT_TYPE_TABLE[doc.type].receivesPayments ? sumAllocatedToInvoice(db, { organizationId, invoiceId: id }).then(fromStoredUnits) : 0,
    // A draft shows its customer as they are today; an issued document, as they were at issue.
    doc.customer ??
      (doc.customer_id
        ? findCustomer(db, { organizationId, id: doc.customer_id }).then((c) => (c ? customerSnapshotOf(c, doc.delivery_address) : null))
        : null),
    documentNature(db, organizationId, doc),
    submitted ? documentEinvoice(db, organizationId, id) : null,
  ]);
  const {
    organization_id: _org,
    counter: _counter,
    customer_name: _name,
    origin_id: _origin,
    corrects_id: _corrects,
    deducted_by_id: _deducted,
    seller,
    totals,
    status,
    ...fields
  } = doc;
  return {
    ...fields,
    status: effectiveStatus({ type: doc.type, status, maturity: doc.maturity }, todayIso()),
    stored_status: status,
    customer,
    organization: seller,
    ...totals,
    deposit_invoices: deposits,
    // The credit set against this invoice: what is left to pay accounts for it (see refreshInvoiceBalance).
    credited,
    settlement: doc.type === 'credit' && doc.number ? await creditSettlementOf(db, organizationId, doc) : null,
    operation_nature: nature,
    origin: origin ?? null,
    corrects: corrects ?? null,
    linked,
    einvoice,
    payment_reference: invoiceReference(doc),
  };
}
export type DocumentRecord = DocumentAnswer;

/** What the search index holds for a document (also written in bulk by the scale bench's seed, without the service). */
export function documentSearchEntry(
  organizationId: number,
  row: { id: number; number: string | null; type: keyof typeof TYPE_LABELS; customer_name: string | null; date: string },
): SearchEntry {
  return {
    organizationId,
    kind: 'document',
    refId: row.id,
    title: row.number ?? `${statusLabel('draft')} (${TYPE_LABELS[row.type].one})`,
    subtitle: [row.number ? TYPE_LABELS[row.type].one : '', row.customer_name].filter(Boolean).join(' · '),
    body: [row.customer_name, row.date, TYPE_LABELS[row.type].one].join(' '),
    number: row.number,
    type: row.type,
  };
}

export async function indexDocument(db: Db, organizationId: number, id: number): Promise<void> {
  const row = await findDocumentSummary(db, { organizationId, id });
  if (!row) return removeSearchEntry(db, { organizationId, kind: 'document', refId: id });
  await upsertSearchEntry(db, documentSearchEntry(organizationId, row));
}

interface SaveOptions {
  kind?: 'standard' | 'deposit';
  originId?: number | null;
  correctsId?: number | null;
}

/**
 * The rate a save keeps with the document: on a draft in another currency than the accounting one, the rate typed
 * (null: none, Paramètres → Devises' is taken at issue); left out of an update, the one it has unless its currency
 * changes. An issued document keeps the rate of its issue and a credit note its invoice's: another one is refused, as is
 * a rate other than 1 on a document in the accounting currency. Checked before anything is written.
 */
export async function rateToKeep(
  db: Db,
  organizationId: number,
  form: Pick<DocumentForm, 'currency' | 'exchange_rate'>,
  doc?: Pick<StoredDocument, 'status' | 'corrects_id' | 'currency' | 'exchange_rate'>,
): Promise<string | null> {
  const typed = form.exchange_rate;
  if (doc && (doc.status !== 'draft' || doc.corrects_id)) {
    const kept = doc.exchange_rate;
    if (typed != null && (kept === null || !sameRate(typed, kept)))
      failField(
        'exchange_rate',
        doc.status !== 'draft'
          ? 'Taux de change : il a été fixé à l’émission et ne change plus'
          : 'Taux de change : un avoir garde celui de la facture qu’il corrige',
      );
    return kept;
  }
  const base = (await getAppSettings(db, organizationId)).currency_format.currency;
  if (form.currency === base) {
    if (typed != null && !sameRate(typed, 1))
      failField('exchange_rate', `Taux de change : ce document est en ${base}, la devise de la comptabilité, son taux reste 1`);
    return null;
  }
  if (typed === undefined) return doc && doc.currency === form.currency ? doc.exchange_rate : null;
  return typed;
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
): Promise<DocumentAnswer> {
  const write = await prepareDraft(db, organizationId, input, options);
  const id = await db.transaction().execute(write);
  await indexDocument(db, organizationId, id);
  return getDocument(db, organizationId, id);
}

/**
 * A new draft's checks and defaults, done before any transaction; the write it answers runs inside one the caller
 * opens, so that a recurring invoice's occurrence key is taken in the same transaction as its draft.
 */
export async function prepareDraft(
  db: Db,
  organizationId: number,
  input: DocumentForm,
  options: SaveOptions = {},
): Promise<(trx: Db) => Promise<number>> {
  const customer = await checkCustomer(db, organizationId, input.customer_id);
  await checkOrder(db, organizationId, input.order_id);
  await assertCurrencyEnabled(db, organizationId, input.currency);
  const form = await withDefaults(db, organizationId, input, customer);
  const exchangeRate = await rateToKeep(db, organizationId, form);
  // A credit note mirrors the taxes of the invoice it corrects, whatever the rules are today.
  const rules = await checkTaxRules(db, organizationId, form, { mirrors: Boolean(options.correctsId) });
  const kind = options.kind ?? 'standard';
  const chain = form.type === 'invoice' && kind === 'standard' ? await originChain(db, organizationId, options.originId ?? null) : [];
  return async (trx) => {
    const now = nowIso();
    const open = await findOpenDeposits(trx, { organizationId, originIds: chain });
    if (open.some((d) => d.number === null))
      fail('CONFLICT', 'Une facture d’acompte en brouillon attend sur ce document : émettez-la ou supprimez-la d’abord');
    const newId = await insertDocument(trx, {
      organization_id: organizationId,
      content: contentOf(
        form,
        open.map((d) => d.total),
        0,
        rules.vat,
      ),
      kind,
      status: 'draft',
      number: null,
      counter: null,
      uuid: randomUUID(),
      customer_name: customer?.name ?? '',
      origin_id: options.originId ?? null,
      corrects_id: options.correctsId ?? null,
      deducted_by_id: null,
      seller: null,
      customer: null,
      legal_mentions: [],
      exchange_rate: exchangeRate,
      issued_at: null,
      sent_at: null,
      viewed_at: null,
      created_at: now,
      updated_at: now,
    });
    await claimDeposits(trx, { organizationId, depositIds: open.map((d) => d.id), invoiceId: newId });
    return newId;
  };
}

/** Only drafts, and issued documents that are not legal records while still pending, can be edited. */
function assertEditable(doc: StoredDocument): void {
  if (isEditable(doc.type, doc.status)) return;
  const info = DOCUMENT_TYPE_TABLE[doc.type];
  if (info.issuedRefusals) fail('CONFLICT', info.issuedRefusals.edit);
  fail('CONFLICT', `${capitalize(info.the)} est « ${statusLabel(doc.status, doc.type)} » : il ne se modifie plus`);
}

/**
 * Saves a form over a document. With `base_updated_at` (the editor always sends it) only over the version the form
 * was loaded at: a form loaded before someone else's save is refused, never written over it.
 */
export async function editDocument(db: Db, organizationId: number, id: number, update: DocumentUpdate): Promise<DocumentAnswer> {
  const { base_updated_at: base, ...input } = update;
  const doc = await getStoredDocument(db, organizationId, id);
  assertEditable(doc);
  if (base !== undefined && base !== doc.updated_at) fail('CONFLICT', DOCUMENT_MODIFIED);
  if (input.type !== doc.type)
    fail('BAD_REQUEST', `Type : ${DOCUMENT_TYPE_TABLE[doc.type].the} ne change pas de type, convertissez-le plutôt`);
  // A credit note stays on the invoice it corrects, a deposit on what it pays for: same customer, currency, price mode.
  if (doc.corrects_id || doc.kind === 'deposit') {
    if ((input.customer_id ?? null) !== doc.customer_id)
      failField('customer_id', 'Client : il est celui du document d’origine et ne change pas');
    if (input.currency !== doc.currency) failField('currency', 'Devise : elle est celle du document d’origine et ne change pas');
    if (input.price_mode !== doc.price_mode) failField('price_mode', 'Prix saisis : ils suivent le document d’origine');
  }
  const customer = await checkCustomer(db, organizationId, input.customer_id);
  if ((input.order_id ?? null) !== doc.order_id) await checkOrder(db, organizationId, input.order_id);
  if (input.currency !== doc.currency) await assertCurrencyEnabled(db, organizationId, input.currency);
  const form = await withDefaults(db, organizationId, input, customer);
  const exchangeRate = await rateToKeep(db, organizationId, form, doc);
  const rules = await checkTaxRules(db, organizationId, form, { mirrors: Boolean(doc.corrects_id) });
  const deposits = await depositsFor(db, organizationId, doc);
  const paid = await sumPayments(db, { organizationId, documentId: id });
  const content = contentOf(
    form,
    deposits.map((d) => d.total),
    fromStoredUnits(paid),
    rules.vat,
  );
  await db.transaction().execute(async (trx) => {
    const changed = await updateDocument(trx, {
      organizationId,
      id,
      // Compare-and-set on the version read above (which is the base when one was sent).
      expected: { status: doc.status, updated_at: doc.updated_at },
      changes: {
        content,
        exchange_rate: exchangeRate,
        customer_name: customer?.name ?? '',
        // A pending estimate, order… edited after issue shows the customer it now names.
        ...(doc.status !== 'draft' ? { customer: customer ? customerSnapshotOf(customer, content.delivery_address) : null } : {}),
        // Every save is a new version, even two within one millisecond: the version compared above must change.
        updated_at: laterThan(doc.updated_at),
      },
    });
    if (changed === 0) fail('CONFLICT', base === undefined ? STALE : DOCUMENT_MODIFIED);
  });
  await indexDocument(db, organizationId, id);
  return getDocument(db, organizationId, id);
}

/** Drafts go; issued invoices and credit notes stay forever (corrected by a credit note); others go unless linked. */
export async function removeDocument(db: Db, organizationId: number, id: number): Promise<void> {
  const doc = await getStoredDocument(db, organizationId, id);
  const refusals = DOCUMENT_TYPE_TABLE[doc.type].issuedRefusals;
  if (doc.status !== 'draft' && refusals) fail('CONFLICT', refusals.remove);
  const linked = await findLinkedDocuments(db, { organizationId, id });
  if (linked.length > 0) {
    const names = linked.map((l) => l.number ?? 'brouillon').join(', ');
    fail('CONFLICT', `D’autres documents en sont issus (${names}) : supprimez-les d’abord`);
  }
  // Only as it was read: an issue that landed meanwhile wins, and the number it took is never lost.
  if ((await deleteDocumentRow(db, { organizationId, id, expected: { status: doc.status, updated_at: doc.updated_at } })) === 0)
    fail('CONFLICT', STALE);
  await removeSearchEntry(db, { organizationId, kind: 'document', refId: id });
}
