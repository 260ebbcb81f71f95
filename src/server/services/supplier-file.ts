import type { ReceiptType } from '../../shared/schemas/expense';
import { fail } from '../errors';
import { InflatedTooLarge, readFacturX } from '../einvoice/facturx-read';
import { readSupplierInvoice, SupplierInvoiceError, type SupplierInvoice } from '../einvoice/supplier-invoice';
import { validateEinvoice } from '../einvoice/validate';
import { sniffReceiptType } from './expense-receipts';

/** What an uploaded supplier file holds: its invoice, the EN 16931 rules it breaks, the type its receipt is kept as. */
export type SupplierFile = { invoice: SupplierInvoice; warnings: string[]; type: ReceiptType };

const looksLikeXml = (bytes: Buffer) => /^(\uFEFF)?\s*</.test(bytes.subarray(0, 64).toString('utf8'));

/** The invoice's XML and the type the uploaded file is kept under as the receipt. */
async function invoiceXml(filename: string, bytes: Buffer): Promise<{ xml: string; type: ReceiptType }> {
  if (sniffReceiptType(bytes) === 'application/pdf') {
    let embedded: Awaited<ReturnType<typeof readFacturX>>;
    try {
      embedded = await readFacturX(bytes);
    } catch (error) {
      // Runs in a worker: the cap's own error class does not cross back, its French message does, as an AppError.
      if (error instanceof InflatedTooLarge) fail('BAD_REQUEST', `Fichier : « ${filename} » : ${error.message}`);
      fail('BAD_REQUEST', `Fichier : « ${filename} » est un PDF abîmé ou illisible`);
    }
    if (!embedded)
      fail(
        'BAD_REQUEST',
        `Fichier : « ${filename} » est un PDF sans facture électronique jointe (ni Factur-X ni ZUGFeRD) ; saisissez la dépense et joignez-le comme justificatif`,
      );
    return { xml: embedded.xml, type: 'application/pdf' };
  }
  if (looksLikeXml(bytes)) return { xml: bytes.toString('utf8'), type: 'application/xml' };
  return fail('BAD_REQUEST', `Fichier : « ${filename} » n’est ni un PDF Factur-X/ZUGFeRD ni un XML CII ou UBL`);
}

/** The EN 16931 rules a real supplier's invoice breaks are reported, not refused: the expense is still the user's. */
async function ruleWarnings(xml: string, invoice: SupplierInvoice): Promise<string[]> {
  const result = await validateEinvoice(xml, invoice.syntax);
  const fatal = [...new Set(result.asserts.filter((a) => a.flag === 'fatal').map((a) => a.rule))];
  if (fatal.length > 0) return [`La facture enfreint des règles EN 16931 : ${fatal.join(', ')}`];
  const problem = result.problems[0];
  return problem ? [`La facture ne respecte pas son schéma : ${problem.message}`] : [];
}

/**
 * Reads a supplier's Factur-X/ZUGFeRD PDF, CII or UBL: the whole CPU-heavy part of an import (PDF, XML parsing, the
 * rules), run in a worker thread. Refuses (400, in French) what is not such an invoice.
 */
export async function readSupplierFile(filename: string, content: Uint8Array): Promise<SupplierFile> {
  const bytes = Buffer.from(content.buffer, content.byteOffset, content.byteLength);
  const { xml, type } = await invoiceXml(filename, bytes);
  let invoice: SupplierInvoice;
  try {
    invoice = await readSupplierInvoice(xml);
  } catch (error) {
    if (error instanceof SupplierInvoiceError) fail('BAD_REQUEST', error.message);
    throw error;
  }
  return { invoice, warnings: await ruleWarnings(xml, invoice), type };
}
