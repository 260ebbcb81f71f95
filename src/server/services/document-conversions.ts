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
import { todayIso } from './document-record';
import { documentSave } from '../../shared/document-save';

/** A credit note's totals as its save will compute them: it mirrors its invoice's taxes, VAT included. */
const creditTotals = (form: DocumentForm) => documentSave(form, { vat: true }).totals;

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
    // A new draft is converted at the rate of its own issue, not at the one its source was (a credit note excepted).
    exchange_rate: null,
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
  creditShipping?: number,
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
  if (type === 'credit') return createCreditNote(db, organizationId, row, form, lines, creditShipping);

  const reference = `${NUMBER_LABELS[row.type]} ${row.number} du ${formatDateShort(row.date)}`;
  const draft = {
    ...draftFrom(row, form, type),
    // A quote's conditions are its own (validity, acceptance): they would be false on what it becomes.
    condition: row.type === 'estimate' ? '' : form.condition,
    terms: [form.terms, `Référence : ${reference}`].filter(Boolean).join('\n'),
  };
  const created = await createDocument(db, organizationId, draft, { originId: row.id });
  if (row.status !== 'converted')
    await updateDocument(db, { organizationId, id: row.id, changes: { status: 'converted', updated_at: nowIso() } });
  return created;
}

/**
 * A credit note names the invoice it corrects (CGI art. 242 nonies A) and never credits more than is left of it. For
 * chosen quantities, a line's fixed discount and the document's fixed discount are credited in proportion, and shipping
 * for the amount asked. Without lines: the whole invoice, or once a credit note was issued on it, the balance.
 */
async function createCreditNote(
  db: Db,
  organizationId: number,
  invoice: StoredDocument,
  form: DocumentForm,
  lines?: CreditLine[],
  creditShipping?: number,
): Promise<DocumentAnswer> {
  const precision = currencyPrecision(invoice.currency);
  const earlier = await issuedCreditsOf(db, organizationId, invoice.id);
  if (!(lines && lines.length > 0) && earlier.length > 0) return createBalanceCreditNote(db, organizationId, invoice, form, earlier);
  if (creditShipping !== undefined && money(creditShipping).gt(money(form.shipping)))
    fail('BAD_REQUEST', `Frais de port à créditer : entre 0 et ${formatDecimal(form.shipping, precision)}`);
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
    // Its VAT in euros reverses the invoice's: at the rate the invoice was issued at.
    exchange_rate: invoice.exchange_rate,
    maturity: null,
    condition: '',
    terms: `Avoir sur la facture n° ${invoice.number} du ${formatDateShort(invoice.date)}`,
  };
  // Shipping is credited as the invoice taxed it: apportioned to the credited lines' rates, or at its chosen rate.
  let credit: DocumentForm = {
    ...base,
    shipping: partial ? (creditShipping ?? 0) : form.shipping,
    shipping_tax: invoice.shipping_tax_auto ? undefined : invoice.shipping_tax,
    shipping_tax_auto: invoice.shipping_tax_auto,
  };
  if (partial && form.discount_type === 'amount' && form.discount_value) {
    const whole = creditTotals({ ...form, discount_value: 0 }).subtotal;
    const part = creditTotals({ ...credit, discount_value: 0 }).subtotal;
    credit = { ...credit, discount_value: share(form.discount_value, part, whole) };
  }
  // Checked here for a clear answer now; checked again, in the issuing transaction, when the credit note is issued.
  await assertCreditFits(db, organizationId, invoice, creditTotals(credit).total);
  return createDocument(db, organizationId, credit, { originId: invoice.id, correctsId: invoice.id });
}

/** The credit notes issued on an invoice. */
async function issuedCreditsOf(db: Db, organizationId: number, invoiceId: number): Promise<StoredDocument[]> {
  const linked = (await findLinkedDocuments(db, { organizationId, id: invoiceId })).filter(
    (d) => d.type === 'credit' && d.number !== null && d.corrects_id === invoiceId,
  );
  return Promise.all(linked.map((d) => getStoredDocument(db, organizationId, d.id)));
}

/**
 * « Avoir du solde »: what is left to credit on an invoice after its credit notes, exact to the cent. Partial credit
 * notes round on their own lines, so crediting the remaining quantities may come out a cent over or under; instead,
 * what is left is split over the invoice's VAT rates in proportion to what each has left (largest remainder), one line
 * per rate typed including tax, so that the credit note's total is exactly the balance.
 */
async function createBalanceCreditNote(
  db: Db,
  organizationId: number,
  invoice: StoredDocument,
  form: DocumentForm,
  earlier: StoredDocument[],
): Promise<DocumentAnswer> {
  const precision = currencyPrecision(invoice.currency);
  const credited = earlier.reduce((s, c) => s.plus(c.totals.total), money(0));
  const left = money(invoice.totals.total).minus(invoice.totals.deposits).minus(credited);
  if (left.lte(0)) fail('CONFLICT', `La facture ${invoice.number} est déjà entièrement créditée`);
  const key = (g: { title: string; rate: number }) => `${g.title}\u0000${g.rate}`;
  const ttcOf = (taxes: StoredDocument['totals']['taxes']) => {
    const byKey = new Map<string, { title: string; rate: number; ttc: ReturnType<typeof money> }>();
    for (const g of taxes) {
      const e = byKey.get(key(g)) ?? { title: g.title, rate: g.rate, ttc: money(0) };
      byKey.set(key(g), { ...e, ttc: e.ttc.plus(g.taxable_amount).plus(g.amount) });
    }
    return byKey;
  };
  const groups = ttcOf(invoice.totals.taxes);
  for (const c of earlier)
    for (const [k, g] of ttcOf(c.totals.taxes)) {
      const e = groups.get(k);
      if (e) e.ttc = e.ttc.minus(g.ttc);
    }
  const untaxedOf = (d: StoredDocument) =>
    money(d.totals.total).minus(d.totals.taxes.reduce((s, g) => s.plus(g.taxable_amount).plus(g.amount), money(0)));
  const untaxed = earlier.reduce((s, c) => s.minus(untaxedOf(c)), untaxedOf(invoice));
  const parts = [...groups.values()].map((g) => ({ taxes: [{ title: g.title, rate: g.rate }], weight: g.ttc.gt(0) ? g.ttc : money(0) }));
  if (untaxed.gt(0)) parts.push({ taxes: [], weight: untaxed });
  const shares = allocate(
    left,
    parts.map((p) => p.weight),
    precision,
  );
  const reference = `la facture n° ${invoice.number} du ${formatDateShort(invoice.date)}`;
  const kind = form.items.some((i) => i.kind === 'goods') ? ('goods' as const) : ('service' as const);
  const items = parts
    .map((p, k) => ({
      item: `Solde de ${reference}`,
      description: p.taxes[0] ? `Part soumise à ${p.taxes[0].title}` : 'Part non soumise à la TVA',
      quantity: 1,
      unit: 'forfait',
      unit_price: toNumber(shares[k] ?? 0, precision),
      discount_type: 'percent' as const,
      discount_value: 0,
      taxes: p.taxes,
      kind,
    }))
    .filter((i) => i.unit_price !== 0);
  const credit: DocumentForm = {
    ...draftFrom(invoice, form, 'credit'),
    exchange_rate: invoice.exchange_rate,
    items,
    maturity: null,
    condition: '',
    terms: `Avoir du solde de ${reference}`,
    discount_type: 'percent',
    discount_value: 0,
    shipping: 0,
    shipping_tax: null,
    shipping_tax_auto: false,
    shipping_details: '',
    price_mode: 'ttc',
    deposit_request: [],
  };
  await assertCreditFits(db, organizationId, invoice, creditTotals(credit).total);
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
