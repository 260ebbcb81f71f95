import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PDFDocument } from 'pdf-lib';
import { startTestServer, type TestServer } from '../helpers/server';
import { ARTIFACTS, launchBrowser, newPage } from '../helpers/browser';
import { newUser, Session } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { paginate, PAGE_CONTENT_LIMIT, PX_PER_CM, TOTAL_ROW_HEIGHT } from '../../src/shared/pagination';
import { defaultDocumentTemplate, type DocumentTemplate } from '../../src/shared/schemas/template';
import { defined } from '../../src/shared/defined';

let server: TestServer;
let browser: Browser;
let session: Session;
let cookie: string;
let customerId: number;
beforeAll(async () => {
  server = await startTestServer();
  browser = await launchBrowser();
  session = new Session(server.url);
  await session.rest('POST', '/api/auth/register', newUser());
  cookie = defined(defined(session.cookie, 'session.cookie').split('=')[1]);
  ({ customerId } = await readyToInvoice(session));
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
});

async function open(pathname: string, opts: { logged?: boolean; width?: number } = {}): Promise<Page> {
  const { context, page } = await newPage(browser, server.url, { width: opts.width ?? 1400, height: 1000 });
  if (opts.logged !== false) await context.addCookies([{ name: 'session', value: cookie, url: server.url }]);
  await page.goto(pathname);
  return page;
}

const ready = (page: Page) => page.locator('[data-document-pages][data-render-ready="true"]').waitFor({ timeout: 20_000 });
const shot = (page: Page, selector: string, name: string) =>
  page.locator(selector).screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });

/** What each rendered page holds, read from the real DOM. */
function readPages(page: Page) {
  return page.evaluate(() =>
    Array.from(document.querySelectorAll<HTMLElement>('[data-document-pages] [data-page]')).map((section) => {
      const box = section.getBoundingClientRect();
      const style = getComputedStyle(section);
      const rect = (el: Element | null) => (el ? el.getBoundingClientRect() : null);
      const rows = Array.from(section.querySelectorAll('tbody > tr[data-line]')).map((tr) => {
        const r = tr.getBoundingClientRect();
        return { line: Number((tr as HTMLElement).dataset.line), top: r.top - box.top, bottom: r.bottom - box.top, height: r.height };
      });
      const footer = rect(section.querySelector('[data-area="footer"]'));
      const header = rect(section.querySelector('[data-area="header"]'));
      const thead = rect(section.querySelector('thead'));
      const totals = rect(section.querySelector('[data-block="totals"]'));
      return {
        number: Number(section.dataset.page),
        capacity: Number(section.dataset.capacity),
        height: box.height,
        paddingTop: parseFloat(style.paddingTop),
        paddingBottom: parseFloat(style.paddingBottom),
        header: header?.height ?? 0,
        thead: thead?.height ?? 0,
        footerTop: footer ? footer.top - box.top : box.height,
        footerBottom: footer ? footer.bottom - box.top : box.height,
        footer: footer?.height ?? 0,
        totals: totals?.height ?? 0,
        totalsBottom: totals ? totals.bottom - box.top : 0,
        rows,
        pageNumber: section.querySelector('[data-page-number]')?.textContent ?? '',
        carries: Array.from(section.querySelectorAll('tr[data-carry]')).map((tr) => tr.getBoundingClientRect().height),
        carryAmounts: Array.from(section.querySelectorAll('tr[data-carry]')).map(
          (tr) => `${(tr as HTMLElement).dataset.carry}:${tr.querySelector('span:last-child')?.textContent}`,
        ),
        fold: section.querySelector('[data-fold-line]') !== null,
      };
    }),
  );
}

const lines120 = Array.from({ length: 120 }, (_, i) =>
  line(
    `Prestation ${i + 1}`,
    (i % 7) + 1,
    35 + (i % 11) * 12.5,
    i % 5 === 0 ? 10 : 20,
    i % 9 === 0
      ? { description: 'Détail de l’intervention : déplacement, main-d’œuvre et fournitures.\nSur site, en présence du client.' }
      : {},
  ),
);
let invoiceId: number;
const longInvoice = () => ({
  type: 'invoice',
  customer_id: customerId,
  items: lines120,
  shipping: 25,
  discount_type: 'percent',
  discount_value: 5,
});

/**
 * The pages as drawn: every line once and in order, each whole above its page's footer, each page's lines within
 * its capacity and the whole within SPEC §9's 1022 px, pages filled, numbered 'x / n', and as many as the shared
 * paginate() gives for the heights the pages really have.
 */
async function checkLayout(page: Page, template: DocumentTemplate): Promise<number> {
  const article = page.getByRole('article', { name: 'Aperçu du document' });
  const count = Number(await article.getAttribute('data-pages'));
  const pages = await readPages(page);
  expect(pages).toHaveLength(count);
  expect(pages.flatMap((p) => p.rows.map((r) => r.line))).toEqual(Array.from({ length: 120 }, (_, i) => i + 1));
  for (const p of pages) {
    const used = p.rows.reduce((s, r) => s + r.height, 0);
    expect(used).toBeLessThanOrEqual(p.capacity);
    for (const r of p.rows) {
      expect(r.top).toBeGreaterThanOrEqual(p.paddingTop);
      expect(r.bottom).toBeLessThanOrEqual(p.footerTop + 0.5);
    }
    expect(p.footerBottom).toBeLessThanOrEqual(p.height - p.paddingBottom + 0.5);
    const content = p.header + p.thead + used + p.carries.reduce((s, h) => s + h, 0) + p.totals + p.footer;
    expect(content + p.paddingTop + p.paddingBottom).toBeLessThanOrEqual(PAGE_CONTENT_LIMIT + 1);
    for (const h of p.carries) expect(Math.abs(h - TOTAL_ROW_HEIGHT)).toBeLessThanOrEqual(1);
  }
  expect(defined(pages.at(-1), 'pages.at(-1)').totals).toBeGreaterThan(0);
  expect(defined(pages.at(-1), 'pages.at(-1)').totalsBottom).toBeLessThanOrEqual(defined(pages.at(-1), 'pages.at(-1)').footerTop + 0.5);
  expect(pages.map((p) => p.pageNumber)).toEqual(pages.map((_, i) => `Page ${i + 1} / ${count}`));

  const heights = new Map(pages.flatMap((p) => p.rows.map((r) => [r.line, r.height] as const)));
  const expected = paginate({
    rows: Array.from({ length: 120 }, (_, i) => defined(heights.get(i + 1), 'heights.get(i + 1)')),
    header: defined(pages[0], 'pages[0]').header,
    followingHeader: pages[1]?.header ?? 0,
    footer: Math.max(...pages.map((p) => p.footer)),
    tableHeader: Math.max(...pages.map((p) => p.thead)),
    totals: defined(pages.at(-1), 'pages.at(-1)').totals,
    margins: { first: template.margins.first_page, following: template.margins.following_pages },
    showSubtotal: template.table.show_subtotal,
    showSubtotalPrevious: template.table.show_subtotal_previous,
  });
  expect(expected.map((p) => p.rows.length)).toEqual(pages.map((p) => p.rows.length));
  // Pages are filled: the next page's first line would not have fitted on the page before (the last page may
  // instead have taken the last line along with the totals).
  for (let i = 0; i + 2 < pages.length; i++) {
    const used = defined(pages[i], 'pages[i]').rows.reduce((s, r) => s + r.height, 0);
    const closing = template.table.show_subtotal ? TOTAL_ROW_HEIGHT : 0;
    expect(used + defined(defined(pages[i + 1], 'pages[i + 1]').rows[0]).height).toBeGreaterThan(
      defined(pages[i], 'pages[i]').capacity - closing - 0.5,
    );
  }
  expect(PX_PER_CM).toBe(37.8);
  return count;
}

describe('the document renderer', () => {
  it('shows /preview logged out: the sample invoice with the default template, no redirect', async () => {
    const visitor = await browser.newContext({
      baseURL: server.url,
      viewport: { width: 900, height: 1300 },
      deviceScaleFactor: 2,
      locale: 'fr-FR',
    });
    const p = await visitor.newPage();
    await p.goto('/preview');
    await ready(p);
    expect(new URL(p.url()).pathname).toBe('/preview');
    const doc = p.getByRole('article', { name: 'Aperçu du document' });
    await doc.getByText('F2026-0042').first().waitFor();
    await doc.getByText('Boulangerie Martin', { exact: true }).first().waitFor();
    expect(await doc.getAttribute('data-pages')).toBe('1');
    // The legal mentions of an invoice to a business customer, and the seller's identity.
    await doc.getByText('Indemnité forfaitaire pour frais de recouvrement', { exact: false }).waitFor();
    await doc
      .getByText(/SIRET 55203253400646/)
      .first()
      .waitFor();
    expect(await doc.locator('[data-total="total"] td').textContent()).toMatch(/\d,\d{2}\u00a0€$/);
    await shot(p, '[data-page="1"]', 'render-invoice-page1');
    // A long sample runs over several pages, numbered 'x / n'.
    await p.goto('/preview?lines=60');
    await ready(p);
    const n = Number(await doc.getAttribute('data-pages'));
    expect(n).toBeGreaterThan(1);
    for (let i = 1; i <= n; i++) {
      const numbers = await doc.locator(`[data-page="${i}"] [data-page-number]`).allTextContents();
      expect(numbers.length).toBeGreaterThan(0);
      expect(new Set(numbers)).toEqual(new Set([`Page ${i} / ${n}`]));
    }
    await visitor.close();
  });

  it('paginates a 120-line invoice: expected page count, rows under each page capacity, none cut, pages numbered', async () => {
    const invoice = await issued(session, longInvoice());
    invoiceId = invoice.id;
    const page = await open(`/invoices/${invoice.id}/view`);
    await ready(page);
    const count = await checkLayout(page, (await session.rest('GET', '/api/settings?key=document')).body.data);
    expect(count).toBeGreaterThanOrEqual(4);

    // The app's sticky top bar would cover the top of the pages in element screenshots.
    await page.addStyleTag({ content: 'header { display: none !important; }' });
    await shot(page, '[data-page="1"]', 'render-invoice-multipage-page1');
    await shot(page, '[data-page="2"]', 'render-invoice-multipage-page2');
    await shot(page, `[data-page="${count}"]`, 'render-invoice-multipage-last');

    // Print: one A4 sheet per page, nothing of the app around them.
    await page.emulateMedia({ media: 'print' });
    const pdf = await PDFDocument.load(await page.pdf({ preferCSSPageSize: true, printBackground: true }));
    expect(pdf.getPageCount()).toBe(count);
    const { width, height } = pdf.getPage(0).getSize();
    expect(Math.round(width)).toBe(595);
    expect(Math.round(height)).toBe(842);
    await page.context().close();
  });

  it('follows the template: carried subtotals of 40 px, other margins on following pages, fold line, document info layout 2', async () => {
    const template = defaultDocumentTemplate();
    template.table.show_subtotal = true;
    template.table.show_subtotal_previous = true;
    template.margins.following_pages = { top: 2.5, bottom: 2, left: 2.5, right: 2.5 };
    template.fold_line = { status: true, only_first_page: true, alignment: 'left' };
    const info = defined(defined(defined(template.header[0], 'template.header[0]').columns[1]).elements[1]);
    if (info.type === 'document_info') info.layout = 2;
    expect((await session.rest('PUT', '/api/settings?key=document', template)).status).toBe(200);
    // An issued invoice keeps the template of its issue: the same invoice, issued after the change, follows the new one.
    const frozen = await open(`/invoices/${invoiceId}/view`);
    await ready(frozen);
    expect((await readPages(frozen)).map((p) => p.fold)).toEqual((await readPages(frozen)).map(() => false));
    await frozen.context().close();
    const page = await open(`/invoices/${(await issued(session, longInvoice())).id}/view`);
    await ready(page);
    const count = await checkLayout(page, template);
    const pages = await readPages(page);
    expect(pages.map((p) => p.fold)).toEqual(pages.map((_, i) => i === 0));
    pages.forEach((p, i) => {
      expect(p.paddingTop).toBeCloseTo((i === 0 ? 1.5 : 2.5) * PX_PER_CM, 1);
    });
    // Each page but the last closes with its running subtotal; the next one opens with the same amount.
    for (let i = 0; i + 1 < count; i++) {
      const closing = defined(defined(pages[i], 'pages[i]').carryAmounts.find((c) => c.startsWith('subtotal:'))).split(':')[1];
      expect(defined(pages[i + 1], 'pages[i + 1]').carryAmounts[0]).toBe(`previous:${closing}`);
    }
    expect(defined(pages.at(-1), 'pages.at(-1)').carryAmounts.filter((c) => c.startsWith('subtotal:'))).toEqual([]);
    await page.locator('[data-page="1"] [data-layout="2"]').waitFor();
    await page.addStyleTag({ content: 'header { display: none !important; }' });
    await shot(page, '[data-page="2"]', 'render-invoice-subtotals-page2');
    await page.context().close();
    expect((await session.rest('PUT', '/api/settings?key=document', defaultDocumentTemplate())).status).toBe(200);
  });
});
