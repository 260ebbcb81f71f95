import type { Db } from '../db/connection';
import type { StoredDocument } from '../../shared/schemas/document-model';
import { currencyPrecision } from '../../shared/currencies';
import { vatInBase } from '../../shared/exchange';
import { INPUT_SCALE, rescale, toUnits4 } from '../../shared/money';
import { DOCUMENT_TYPE_TABLE } from '../../shared/document-types';
import { fail } from '../errors';
import { findDocument } from '../db/queries/documents';
import { findDeductedDeposits } from '../db/queries/document-lists';
import { listCurrencyRows } from '../db/queries/currencies';
import { logger } from '../logger';
import { documentNature, getStoredDocument } from './documents';
import { getAppSettings } from './settings';
import { type EnInvoice, toEn16931 } from '../einvoice/en16931';
import { toCii } from '../einvoice/cii';
import { toUbl } from '../einvoice/ubl';
import type { EinvoiceSyntax } from '../einvoice/artefacts';
import { assertValidEinvoice } from '../einvoice/issue-check';
import { hasEinvoice } from '../../shared/document-status';

/**
 * The EN 16931 XML of an issued invoice or credit note: what GET /api/documents/{id}/einvoice answers, what the
 * Factur-X PDF embeds (CII) and what a platform receives. Reads only (no transaction of its own): the issue runs it
 * inside its transaction, before committing, to validate what it is about to issue. A service, as it reads stored
 * documents and settings through services; the pure EN 16931 model and its syntaxes stay in einvoice/.
 */

export const serialisers: Record<EinvoiceSyntax, (invoice: EnInvoice) => string> = { cii: toCii, ubl: toUbl };

/** Refused (409) for what has no EN 16931 form: other types, and drafts (no number, nothing frozen yet). */
export function assertEinvoiceable(doc: Pick<StoredDocument, 'type' | 'status'>): void {
  if (!hasEinvoice(doc.type))
    fail('CONFLICT', `Facture électronique : seules les factures et les avoirs en ont une, pas ${DOCUMENT_TYPE_TABLE[doc.type].article}`);
  if (doc.status === 'draft')
    fail('CONFLICT', 'Facture électronique : émettez d’abord le document, un brouillon n’a ni numéro ni contenu figé');
}

/**
 * The VAT total in the accounting currency (BT-111) for a document in another currency: at the rate kept when it was
 * issued (the FEC and the reports convert at the same one), per rate then summed, as the PDF prints it.
 */
async function taxCurrencyOf(db: Db, organizationId: number, doc: StoredDocument) {
  const base = (await getAppSettings(db, organizationId)).currency_format.currency;
  if (doc.currency === base) return null;
  // Only a document issued before rates were kept has none: today's rate in Paramètres → Devises is all there is.
  const rate = doc.exchange_rate ?? (await listCurrencyRows(db, { organizationId })).find((r) => r.code === doc.currency)?.rate;
  if (!rate) return null;
  const { total } = vatInBase(doc.totals.taxes, { code: doc.currency, rate }, base);
  const precision = currencyPrecision(base);
  return { code: base, taxTotal: rescale(toUnits4(total), INPUT_SCALE, precision), precision };
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

/**
 * An invoice or credit note is issued only if its EN 16931 XML (the CII that Factur-X embeds) passes the
 * CII schema and the EN 16931 rules. The validation takes seconds on thousands of lines, so it runs before the
 * issuing transaction, on the document as it would be issued (with the number its series would give it now): a
 * refusal writes nothing and takes no number. Answers the XML it accepted, for `assertIssuedAsValidated`.
 */
export async function validateBeforeIssue(db: Db, organizationId: number, wouldBe: StoredDocument): Promise<string> {
  const xml = serialisers.cii(await einvoiceModel(db, organizationId, wouldBe));
  await assertValidEinvoice(xml, wouldBe.number ?? '');
  return xml;
}

/**
 * In the issuing transaction, once the number and the snapshots are written: what was written must make the XML
 * validated before, byte for byte, or nothing commits. When it differs (another issue took the forecast number, a
 * rate changed in between) this XML is validated in turn, still off the event loop: nothing is issued unvalidated.
 */
export async function assertIssuedAsValidated(
  db: Db,
  organizationId: number,
  documentId: number,
  number: string,
  validatedXml: string,
): Promise<void> {
  const xml = await buildEinvoiceXml(db, organizationId, documentId, 'cii');
  if (xml === validatedXml) return;
  logger.info({ event: 'einvoice_revalidated', documentId, number });
  await assertValidEinvoice(xml, number);
}
