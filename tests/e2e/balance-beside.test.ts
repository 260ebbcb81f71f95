import { describe, expect, it } from 'vitest';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { Page } from 'playwright-core';
import { screenshot, newPage, browserSuite } from '../helpers/browser';
import { issued, line, readyToInvoice } from '../helpers/documents';

const suite = browserSuite();

/** The PDF's whole text, runs of white space (non-breaking ones included) made single spaces. */
async function pdfText(bytes: Uint8Array): Promise<string> {
  const pdf = await getDocument({ data: bytes.slice(), useSystemFonts: false, disableFontFace: true, verbosity: 0 }).promise;
  let text = '';
  for (let n = 1; n <= pdf.numPages; n++) {
    const content = await (await pdf.getPage(n)).getTextContent();
    text += ` ${content.items.map((i) => ('str' in i ? i.str : '')).join(' ')}`;
  }
  return text.replace(/[\s\u00a0\u202f]+/g, ' ');
}

const spaced = (text: string | null) => (text ?? '').replace(/[\s\u00a0\u202f]+/g, ' ');

/** The balance card's text and the document pages' text, read apart: the balance must sit outside the pages. */
async function balanceAndPages(page: Page) {
  await page.locator('[data-document-pages][data-render-ready="true"]').waitFor({ timeout: 20_000 });
  const card = page.getByTestId('balance-card');
  await card.waitFor();
  return {
    card: spaced(await card.textContent()),
    pages: spaced(await page.locator('[data-document-pages]').textContent()),
    cardInsidePages: await page.locator('[data-document-pages] [data-testid="balance-card"]').count(),
  };
}

describe('an issued invoice after a payment', () => {
  it('keeps its PDF, Aperçu and share page as issued, the balance shown beside the document', async () => {
    const { customerId } = await readyToInvoice(suite.session);
    const invoice = await issued(suite.session, { customer_id: customerId, items: [line('Mission', 1, 1000)] });
    expect(invoice.total).toBe(1200);
    const paid = await suite.session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-10', amount: 300 });
    expect(paid.status).toBe(201);

    const response = await fetch(`${suite.server.url}/documents/download/${invoice.uuid}`);
    expect(response.status).toBe(200);
    const pdf = await pdfText(new Uint8Array(await response.arrayBuffer()));
    expect(pdf).toContain('1200,00 €');
    for (const after of ['Déjà réglé', 'Avoirs', 'Reste à payer', '900,00 €']) expect(pdf).not.toContain(after);

    const { page } = await suite.loggedIn({ width: 1400, height: 1000 });
    await page.goto(`/invoices/${invoice.id}/view`);
    const view = await balanceAndPages(page);
    expect(view.card).toContain('Payé : 300,00 €');
    expect(view.card).toContain('Reste à payer : 900,00 €');
    expect(view.cardInsidePages).toBe(0);
    expect(view.pages).toContain('1200,00 €');
    for (const after of ['Déjà réglé', 'Net à payer', '900,00 €']) expect(view.pages).not.toContain(after);
    await screenshot(page, 'view-balance-card');
    await page.context().close();

    const visitor = await newPage(suite.browser, suite.server.url);
    await visitor.page.goto(`/share/${invoice.uuid}`);
    const shared = await balanceAndPages(visitor.page);
    expect(shared.card).toContain('Reste à payer : 900,00 €');
    expect(shared.cardInsidePages).toBe(0);
    for (const after of ['Déjà réglé', 'Net à payer', '900,00 €']) expect(shared.pages).not.toContain(after);
    await screenshot(visitor.page, 'share-balance-card');
    await visitor.context.close();
  });
});
