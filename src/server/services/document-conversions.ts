import type { Db } from '../db/connection';
import { CONVERSIONS, CONVERTIBLE_FROM } from '../../shared/document-status';
import { allocate, money, toNumber } from '../../shared/money';
import { currencyPrecision } from '../../shared/currencies';
import { capitalize, formatDateShort, formatDecimal } from '../../shared/format';
import { DOCUMENT_TYPE_TABLE } from '../../shared/document-types';
import { NUMBER_LABELS } from '../../shared/status';
import { documentInputSchema, type DocumentForm, type DocumentItem, type DocumentType } from '../../shared/schemas/document';
import type { DocumentAnswer, StoredDocument } from '../../shared/schemas/document-model';
import { fail } from '../errors';
import { nowIso } from '../clock';
import { updateDocument } from '../db/queries/documents';
import { findLinkedDocuments } from '../db/queries/document-lists';
import { createDocument, getStoredDocument } from './documents';
import { assertCreditFits } from './document-lifecycle';
import { todayIso, totalsOf } from './document-record';

/** The form a stored document was saved from: its input fields, picked by the input schema itself. */
const formOf = (doc: StoredDocument): DocumentForm => documentInputSchema.parse(doc);

/** A copy of a document's form as a new draft of `type`: today's date, the maturity recomputed from the customer. */
function draftFrom(doc: StoredDocument, form: DocumentForm, type: DocumentType): DocumentForm {
  const today = todayIso();
  return {
    ...form,
    type,
    // The later of two ISO dates, compared as text (string order is date order)
    date: today > doc.date ? today : doc.date,
    maturity: undefined,
    items: form.items.map(({ id: _id, ...item }) => item),
  };
}

/** Duplicates any document as a new draft of the same type, with no link (a fresh start). */
export async function duplicateDocument(db: Db, organizationId: number, id: number): Promise<DocumentAnswer> {
  const doc = await getStoredDocument(db, organizationId, id);
  return createDocument(db, organizationId, draftFrom(doc, formOf(doc), doc.type), { kind: doc.kind });
}

export interface CreditLine {
  /** The invoice line's id. */
  id: number;
  quantity: number;
}

/**
 * Converts an issued document along CONVERSIONS (shared/document-status.ts): the new draft keeps a link to its origin,
 * and the origin is marked converted. An invoice converts into a credit note, whole or for chosen lines.
 */
export async function convertDocument(
  db: Db,
  organizationId: number,
  id: number,
  type: DocumentType,
  lines?: CreditLine[],
): Promise<DocumentAnswer> {
  const row = await getStoredDocument(db, organizationId, id);
  if (!CONVERSIONS[row.type].includes(type)) {
    fail('CONFLICT', `${capitalize(DOCUMENT_TYPE_TABLE[row.type].the)} ne se convertit pas en ${DOCUMENT_TYPE_TABLE[type].noun}`);
  }
  if (row.kind === 'deposit' && type === 'credit' && row.status === 'draft')
    fail('CONFLICT', 'Émettez la facture d’acompte avant de l’avoir');
  if (!CONVERTIBLE_FROM[row.type].includes(row.status)) {
    fail(
      'CONFLICT',
      row.status === 'draft'
        ? `Émettez ${DOCUMENT_TYPE_TABLE[row.type].the} avant de le convertir : un brouillon n’a pas de numéro`
        : `${capitalize(DOCUMENT_TYPE_TABLE[row.type].the)} ne peut plus être converti`,
    );
  }
  const form = formOf(row);
  if (type === 'credit') return createCreditNote(db, organizationId, row, form, lines);

  const reference = `${NUMBER_LABELS[row.type]} ${row.number} du ${formatDateShort(row.date)}`;
  const draft = { ...draftFrom(row, form, type), terms: [form.terms, `Référence : ${reference}`].filter(Boolean).join('\n') };
  const created = await createDocument(db, organizationId, draft, { originId: row.id });
  if (row.status !== 'converted')
    await updateDocument(db, { organizationId, id: row.id, changes: { status: 'converted', updated_at: nowIso() } });
  return created;
}

/**
 * A credit note names the invoice it corrects (CGI art. 242 nonies A) and never credits more than is left of it. For
 * chosen quantities, a line's fixed discount and the document's fixed discount are credited in proportion; shipping
 * is credited with the whole invoice only.
 */
async function createCreditNote(
  db: Db,
  organizationId: number,
  invoice: StoredDocument,
  form: DocumentForm,
  lines?: CreditLine[],
): Promise<DocumentAnswer> {
  const precision = currencyPrecision(invoice.currency);
  const share = (value: number, part: number, whole: number) =>
    whole === 0 ? 0 : toNumber(money(value).times(part).div(whole), precision);
  const partial = Boolean(lines && lines.length > 0);
  let items: DocumentItem[] = form.items;
  if (lines && lines.length > 0) {
    items = lines.map((line) => {
      const source = form.items.find((i) => i.id === line.id);
      if (!source) return fail('BAD_REQUEST', `Lignes : la ligne ${line.id} n’appartient pas à la facture ${invoice.number}`);
      if (line.quantity <= 0 || money(line.quantity).gt(money(source.quantity))) {
        fail(
          'BAD_REQUEST',
          `Lignes : la quantité à créditer de « ${source.item} » est entre 0 et ${formatDecimal(source.quantity, 2).replace(/,00$/, '')}`,
        );
      }
      const discount =
        source.discount_type === 'amount' ? share(source.discount_value, line.quantity, source.quantity) : source.discount_value;
      return { ...source, quantity: line.quantity, discount_value: discount };
    });
  }
  // A credit note has no due date nor payment terms of its own.
  const base = {
    ...draftFrom(invoice, { ...form, items }, 'credit'),
    maturity: null,
    condition: '',
    terms: `Avoir sur la facture n° ${invoice.number} du ${formatDateShort(invoice.date)}`,
  };
  // Shipping is credited at the rate the invoice applied to it, not at today's main rate.
  let credit: DocumentForm = {
    ...base,
    shipping: partial ? 0 : form.shipping,
    shipping_tax: invoice.shipping_tax,
    shipping_tax_auto: false,
  };
  if (partial && form.discount_type === 'amount' && form.discount_value) {
    const whole = totalsOf({ ...form, discount_value: 0 }, [], 0).subtotal;
    const part = totalsOf({ ...credit, discount_value: 0 }, [], 0).subtotal;
    credit = { ...credit, discount_value: share(form.discount_value, part, whole) };
  }
  // Checked here for a clear answer now; checked again, in the issuing transaction, when the credit note is issued.
  await assertCreditFits(db, organizationId, invoice, totalsOf(credit, [], 0).total);
  return createDocument(db, organizationId, credit, { originId: invoice.id, correctsId: invoice.id });
}

/**
 * A deposit invoice (facture d'acompte, CGI art. 289: due as soon as a prepayment is received) on an issued estimate
 * or order, for a percent or an amount including tax. It is an invoice of its own series' numbering, with one line per
 * VAT rate of the origin in proportion (VAT on a deposit follows the rates of what it pays for), typed TTC so the
 * requested amount is exactly what is due. The final invoice converted from the origin deducts it.
 */
export async function createDepositInvoice(
  db: Db,
  organizationId: number,
  id: number,
  request: { percent?: number; amount?: number },
): Promise<DocumentAnswer> {
  const row = await getStoredDocument(db, organizationId, id);
  if (row.type !== 'estimate' && row.type !== 'order') fail('CONFLICT', 'Une facture d’acompte se fait sur un devis ou un bon de commande');
  if (row.status === 'draft') fail('CONFLICT', `Émettez ${DOCUMENT_TYPE_TABLE[row.type].the} avant d’en facturer un acompte`);
  if (!['pending', 'accepted', 'done', 'converted'].includes(row.status))
    fail('CONFLICT', `${capitalize(DOCUMENT_TYPE_TABLE[row.type].the)} ne peut plus recevoir d’acompte`);
  // Once the final invoice exists, a prepayment is settled on it, not by another deposit invoice.
  const finals = (await findLinkedDocuments(db, { organizationId, id })).filter(
    (d) => d.type === 'invoice' && d.kind === 'standard' && d.status !== 'canceled',
  );
  if (finals.length > 0)
    fail('CONFLICT', `La facture finale existe déjà (${finals[0]?.number ?? 'brouillon'}) : enregistrez le paiement sur elle`);
  const form = formOf(row);
  const precision = currencyPrecision(row.currency);
  const total = money(row.totals.total);
  const requested =
    request.percent !== undefined
      ? total.times(request.percent).div(100).round(precision, 1)
      : request.amount !== undefined
        ? money(request.amount).round(precision, 1)
        : fail('BAD_REQUEST', 'Acompte : un pourcentage ou un montant est attendu');
  if (requested.lte(0)) fail('BAD_REQUEST', 'Acompte : le montant doit être positif');
  const existing = (await findLinkedDocuments(db, { organizationId, id })).filter((d) => d.kind === 'deposit' && d.status !== 'canceled');
  const already = existing.reduce((s, d) => s.plus(d.total), money(0));
  if (already.plus(requested).gt(total)) {
    fail(
      'CONFLICT',
      `Les acomptes (${formatDecimal(already.plus(requested), precision)}) dépasseraient le total de ${DOCUMENT_TYPE_TABLE[row.type].the} (${formatDecimal(total, precision)})`,
    );
  }

  // The origin's stored tax groups: what its deposits follow, as they were computed at its last save.
  const totals = row.totals;
  // Weights: each VAT group's amount including tax (shipping at a rate is in its group); what carries no tax (untaxed
  // lines, untaxed shipping) is one more share.
  const groups = totals.taxes.map((g) => ({ taxes: [{ title: g.title, rate: g.rate }], weight: money(g.taxable_amount).plus(g.amount) }));
  const taxed = groups.reduce((s, g) => s.plus(g.weight), money(0));
  const untaxed = total.minus(taxed);
  if (untaxed.gt(0)) groups.push({ taxes: [], weight: untaxed });
  const shares = allocate(
    requested,
    groups.map((g) => g.weight),
    precision,
  );
  const label = request.percent !== undefined ? `Acompte de ${formatDecimal(request.percent, 2).replace(/,00$/, '')} %` : 'Acompte';
  const reference = `${NUMBER_LABELS[row.type]} ${row.number} du ${formatDateShort(row.date)}`;
  const items = groups
    .map((g, k) => ({
      item: `${label} sur ${reference.charAt(0).toLowerCase()}${reference.slice(1)}`,
      description: g.taxes[0] ? `Part soumise à ${g.taxes[0].title}` : 'Part non soumise à la TVA',
      quantity: 1,
      unit: 'forfait',
      unit_price: toNumber(shares[k] ?? 0, precision),
      discount_type: 'percent' as const,
      discount_value: 0,
      taxes: g.taxes,
      kind: form.items.some((i) => i.kind === 'goods') ? ('goods' as const) : ('service' as const),
    }))
    .filter((i) => i.unit_price !== 0);
  const deposit: DocumentForm = {
    ...draftFrom(row, form, 'invoice'),
    items,
    discount_type: 'percent',
    discount_value: 0,
    shipping: 0,
    shipping_tax: null,
    shipping_tax_auto: false,
    shipping_details: '',
    price_mode: 'ttc',
    deposit_request: [],
    terms: `Facture d’acompte — ${reference}`,
  };
  return createDocument(db, organizationId, deposit, { kind: 'deposit', originId: row.id });
}
