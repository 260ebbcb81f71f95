import type * as QRCodeModule from 'qrcode';
import { onFirstUse } from '../on-first-use';

const qrCode = onFirstUse<typeof QRCodeModule>('qrcode');
import { invoiceReference } from '../../shared/creditor-reference';
import { epcTransferPayload, type TransferCode } from '../../shared/epc-qr';
import type { StoredDocument } from '../../shared/schemas/document-model';
import type { TransferView } from '../../shared/schemas/transfer';
import { paymentAccountOf } from '../../shared/payment-account';

type Invoice = Pick<StoredDocument, 'type' | 'number' | 'currency' | 'seller'>;

/**
 * What the EPC069-12 code of an invoice says, or null when there is nothing to ask for or no sure way to ask: not an
 * issued invoice, not in euros, nothing left to pay, no account, or an IBAN that fails its check. The account is the
 * one frozen with the invoice, so the code always pays what its payment block prints.
 */
export function transferCode(doc: Invoice, amountDue: number): (TransferCode & { reference: string | null }) | null {
  if (doc.type !== 'invoice' || !doc.number || !doc.seller) return null;
  const account = paymentAccountOf(doc.seller);
  if (!account) return null;
  const reference = invoiceReference(doc);
  const result = epcTransferPayload({
    currency: doc.currency,
    amount: amountDue,
    ...account,
    reference,
    // A number too long for a reference is still written, as free text the bank passes on.
    text: `Facture ${doc.number}`,
  });
  if (!result.ok) return null;
  const { ok: _, ...code } = result;
  return { ...code, reference };
}

/** The code as an SVG data URL: an image the browser draws, never a document it runs. */
export async function qrImage(payload: string): Promise<string> {
  // One byte segment of UTF-8, error correction M: what EPC069-12 asks for and every banking app reads.
  const svg = await qrCode().toString([{ data: new TextEncoder().encode(payload), mode: 'byte' }], {
    type: 'svg',
    errorCorrectionLevel: 'M',
    margin: 0,
    color: { dark: '#000000', light: '#ffffff' },
  });
  return `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
}

/**
 * How to pay an invoice by transfer on its public page: the QR code a banking app scans, and what it carries for a
 * customer who types or copies it. Drawn on the server, so the page and the PDF printed from it carry the same code.
 */
export async function transferView(doc: Invoice, amountDue: number): Promise<TransferView | null> {
  const code = transferCode(doc, amountDue);
  if (!code) return null;
  const { payload, ...shown } = code;
  return { ...shown, qr: await qrImage(payload) };
}
