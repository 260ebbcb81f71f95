import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { ARTIFACTS, PHONE, browserSuite, newPage, screenshot } from '../helpers/browser';
import { issued, line, readyToInvoice, sellerIdentity } from '../helpers/documents';
import { decodeQr, keepImage, rasterisePdfPage } from '../helpers/qr-decode';

const suite = browserSuite();

/** What a banking app must read: EPC069-12 version 002, UTF-8, the BIC, holder, IBAN, the 540 € due and the RF reference. */
const EPC_PAYLOAD = [
  'BCD',
  '002',
  '1',
  'SCT',
  'BNPAFRPP',
  'Atelier Fontaine',
  'FR7630006000011234567890189',
  'EUR540.00',
  '',
  'RF12F20260001',
].join('\n');

async function pdfText(bytes: Uint8Array): Promise<{ pages: number; text: string }> {
  const pdf = await getDocument({ data: bytes.slice(), useSystemFonts: false, disableFontFace: true, verbosity: 0 }).promise;
  const texts: string[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    texts.push(content.items.map((i) => ('str' in i ? i.str : '')).join(' '));
  }
  return { pages: pdf.numPages, text: texts.join(' ').replace(/[\s\u00a0\u202f]+/g, ' ') };
}

describe('paying an invoice by transfer: the RF reference and the EPC069-12 QR code', () => {
  let uuid = '';

  it('the kept PDF prints the reference and a code that decodes, from the page’s pixels, to the exact EPC payload', async () => {
    const { customerId } = await readyToInvoice(suite.session);
    expect((await suite.session.rest('PUT', '/api/organization', sellerIdentity)).status).toBe(200);
    const account = await suite.session.rest('POST', '/api/bank-accounts', {
      name: 'Compte courant',
      iban: 'FR76 3000 6000 0112 3456 7890 189',
      bic: 'BNPAFRPP',
      default: true,
    });
    expect(account.status).toBe(201);
    const invoice = await issued(suite.session, {
      customer_id: customerId,
      condition: 'Virement à 30 jours',
      items: [line('Conseil en organisation', 3, 150, 20, { unit: 'h' })],
    });
    expect(invoice).toMatchObject({ number: 'F2026-0001', total: 540 });
    uuid = invoice.uuid;

    const response = await fetch(`${suite.server.url}/documents/download/${uuid}`);
    expect(response.status).toBe(200);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const { pages, text } = await pdfText(bytes);
    // A short invoice stays on one page with its code.
    expect(pages).toBe(1);
    // The payment block: the account printed in its paper form, the reference, the code.
    expect(text).toContain('IBAN : FR76 3000 6000 0112 3456 7890 189 BIC : BNPAFRPP Référence de virement : RF12 F202 6000 1');
    expect(text).toContain('Scannez pour payer par virement');

    const raster = await rasterisePdfPage(suite.browser, bytes, { scale: 3 });
    keepImage(path.join(ARTIFACTS, 'transfer-qr-pdf-page.png'), raster);
    expect(decodeQr(raster)).toBe(EPC_PAYLOAD);
  });

  it('the public page shows the same code, readable on a wide screen and on a phone', async () => {
    const { page } = await newPage(suite.browser, suite.server.url);
    await page.goto(`/share/${uuid}`);
    await page.locator('[data-render-ready="true"]').waitFor();
    const code = page.getByRole('img', { name: 'QR code de virement SEPA' });
    const firstPage = page.getByRole('region', { name: /^Page 1 sur/ });
    await firstPage.getByText('Scannez pour payer par virement').waitFor();
    await firstPage.getByText('Référence de virement : RF12 F202 6000 1').waitFor();
    expect(decodeQr(await code.screenshot())).toBe(EPC_PAYLOAD);
    // A wide screen reads the details on the document itself: no card repeats them.
    expect(await page.getByTestId('transfer-card').isVisible()).toBe(false);
    await screenshot(page, 'transfer-qr-share-wide');
    await page.context().close();

    // A phone's screen: three device pixels to a CSS pixel.
    const phone = await suite.browser.newContext({ baseURL: suite.server.url, viewport: PHONE, deviceScaleFactor: 3, locale: 'fr-FR' });
    const small = await phone.newPage();
    await small.goto(`/share/${uuid}`);
    // Below 600 px the document is reflowed to one column: its payment block is there, code included.
    await small.locator('[data-document-reflow]').waitFor({ timeout: 30_000 });
    await small.locator('[data-document-reflow]').getByText('Référence de virement').waitFor();
    expect(decodeQr(await small.getByRole('img', { name: 'QR code de virement SEPA' }).screenshot())).toBe(EPC_PAYLOAD);
    // A phone cannot scan its own screen: the card above the document says what to type, at reading size.
    const card = small.getByRole('region', { name: 'Payer par virement' });
    expect((await card.innerText()).replace(/\s+/g, ' ')).toBe(
      'Payer par virement Bénéficiaire Atelier Fontaine IBAN FR76 3000 6000 0112 3456 7890 189 Copier BIC BNPAFRPP Montant 540,00 € Référence RF12 F202 6000 1 Copier',
    );
    await screenshot(small, 'transfer-qr-share-phone', { fullPage: false });
    await phone.grantPermissions(['clipboard-read', 'clipboard-write']);
    await card.getByRole('button', { name: 'Copier la référence' }).click();
    await small.getByTestId('snackbar').getByText('Référence copiée').waitFor();
    expect(await small.evaluate(() => navigator.clipboard.readText())).toBe('RF12F20260001');
    await card.getByRole('button', { name: 'Copier l’IBAN' }).click();
    await small.getByTestId('snackbar').getByText('IBAN copié').waitFor();
    expect(await small.evaluate(() => navigator.clipboard.readText())).toBe('FR7630006000011234567890189');
    await phone.close();
  });
});
