import type { Db } from '../db/connection';
import type { StoredDocument } from '../../shared/schemas/document-model';
import { currencyPrecision } from '../../shared/currencies';
import { convertAmount } from '../../shared/exchange';
import { INPUT_SCALE, rescale, toUnits4 } from '../../shared/money';
import { DOCUMENT_TYPE_TABLE } from '../../shared/document-types';
import { fail } from '../errors';
import { findDocument } from '../db/queries/documents';
import { findDeductedDeposits } from '../db/queries/document-lists';
import { listCurrencyRows } from '../db/queries/currencies';
import { documentNature, getStoredDocument } from '../services/documents';
import { getAppSettings } from '../services/settings';
import { type EnInvoice, toEn16931 } from './en16931';
import { toCii } from './cii';
import { toUbl } from './ubl';
import type { EinvoiceSyntax } from './artefacts';

/**
 * The EN 16931 XML of an issued invoice or credit note: what GET /api/documents/{id}/einvoice answers, what the
 * Factur-X PDF embeds (CII) and what a platform receives. Reads only (no transaction of its own): the issue runs it
 * inside its transaction, before committing, to validate what it is about to issue.
 */

export const serialisers: Record<EinvoiceSyntax, (invoice: EnInvoice) => string> = { cii: toCii, ubl: toUbl };

/** Refused (409) for what has no EN 16931 form: other types, and drafts (no number, nothing frozen yet). */
export function assertEinvoiceable(doc: Pick<StoredDocument, 'type' | 'status'>): void {
  if (doc.type !== 'invoice' && doc.type !== 'credit')
    fail('CONFLICT', `Facture électronique : seules les factures et les avoirs en ont une, pas ${DOCUMENT_TYPE_TABLE[doc.type].article}`);
  if (doc.status === 'draft')
    fail('CONFLICT', 'Facture électronique : émettez d’abord le document, un brouillon n’a ni numéro ni contenu figé');
}

/** The VAT total in the accounting currency (BT-111) for a document in another currency, at its rate in Paramètres → Devises. */
async function taxCurrencyOf(db: Db, organizationId: number, doc: StoredDocument) {
  const base = (await getAppSettings(db, organizationId)).currency_format.currency;
  if (doc.currency === base) return null;
  const rows = await listCurrencyRows(db, { organizationId });
  const from = rows.find((r) => r.code === doc.currency);
  if (!from) return null;
  const to = rows.find((r) => r.code === base);
  const converted = convertAmount(doc.totals.tax, { code: doc.currency, rate: from.rate }, { code: base, rate: to?.rate ?? '1' });
  const precision = currencyPrecision(base);
  return { code: base, taxTotal: rescale(toUnits4(converted), INPUT_SCALE, precision), precision };
}

/** The EN 16931 model of a stored, issued invoice or credit note, with what the document alone does not hold. */
export async function einvoiceModel(db: Db, organizationId: number, doc: StoredDocument): Promise<EnInvoice> {
  assertEinvoiceable(doc);
  const [nature, corrects, deposits, taxCurrency] = await Promise.all([
    documentNature(db, organizationId, doc),
    doc.corrects_id ? findDocument(db, { organizationId, id: doc.corrects_id }) : undefined,
    doc.type === 'invoice' && doc.kind === 'standard' ? findDeductedDeposits(db, { organizationId, invoiceId: doc.id }) : [],
    taxCurrencyOf(db, organizationId, doc),
  ]);
  return toEn16931(doc, {
    nature,
    precision: currencyPrecision(doc.currency),
    corrects: corrects?.number ? { number: corrects.number, date: corrects.date } : null,
    deposits,
    taxCurrency,
  });
}

/** The XML of an issued invoice or credit note of this organisation (404 for another's, 409 for a draft or another type). */
export async function buildEinvoiceXml(db: Db, organizationId: number, documentId: number, format: EinvoiceSyntax): Promise<string> {
  const doc = await getStoredDocument(db, organizationId, documentId);
  return serialisers[format](await einvoiceModel(db, organizationId, doc));
}

/** The download: `{ filename, content }`, named after the document's number. */
export async function einvoiceFile(db: Db, organizationId: number, documentId: number, format: EinvoiceSyntax) {
  const doc = await getStoredDocument(db, organizationId, documentId);
  const content = serialisers[format](await einvoiceModel(db, organizationId, doc));
  const name = (doc.number ?? String(doc.id)).replace(/[^\w.-]+/g, '_');
  return { filename: `${name}-${format}.xml`, content };
}
