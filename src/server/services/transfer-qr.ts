import QRCode from 'qrcode';
import type { Db } from '../db/connection';
import { invoiceReference } from '../../shared/creditor-reference';
import { epcTransferPayload } from '../../shared/epc-qr';
import type { StoredDocument } from '../../shared/schemas/document-model';
import { paymentAccount } from './payment-account';

type Invoice = Pick<StoredDocument, 'organization_id' | 'type' | 'number' | 'currency'>;

/**
 * What the EPC069-12 code of an invoice says, or null when there is nothing to ask for or no sure way to ask: not an
 * issued invoice, not in euros, nothing left to pay, no account, or an IBAN that fails its check.
 */
export async function transferPayload(db: Db, doc: Invoice, amountDue: number): Promise<string | null> {
  if (doc.type !== 'invoice' || !doc.number) return null;
  const account = await paymentAccount(db, doc.organization_id);
  if (!account) return null;
  const result = epcTransferPayload({
    currency: doc.currency,
    amount: amountDue,
    ...account,
    reference: invoiceReference(doc),
    // A number too long for a reference is still written, as free text the bank passes on.
    text: `Facture ${doc.number}`,
  });
  return result.ok ? result.payload : null;
}

/** The code as an SVG data URL: an image the browser draws, never a document it runs. */
export async function qrImage(payload: string): Promise<string> {
  // One byte segment of UTF-8, error correction M: what EPC069-12 asks for and every banking app reads.
  const svg = await QRCode.toString([{ data: new TextEncoder().encode(payload), mode: 'byte' }], {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 0,
    color: { dark: '#000000', light: '#ffffff' },
  });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/**
 * The QR code a banking app scans to pay an invoice by transfer. Drawn on the server, so the public page and the PDF
 * printed from it carry the very same code.
 */
export async function transferQrCode(db: Db, doc: Invoice, amountDue: number): Promise<string | null> {
  const payload = await transferPayload(db, doc, amountDue);
  return payload === null ? null : qrImage(payload);
}
