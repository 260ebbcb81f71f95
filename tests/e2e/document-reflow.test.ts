import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite, newPage, PHONE, screenshot, WIDE } from '../helpers/browser';
import { expectNoSeriousViolations } from '../helpers/axe';
import { issued, line, readyToInvoice } from '../helpers/documents';

/** Below 600 px a document is read in one column at reading size, not as an A4 page shrunk to 45 %. */
const suite = browserSuite();

/** The smallest computed font size of what the selector matches, in CSS pixels. */
const smallestFont = (page: Page, selector: string) =>
  page.evaluate(
    (sel) => Math.min(...[...document.querySelectorAll(sel)].map((el) => Number.parseFloat(getComputedStyle(el).fontSize))),
    selector,
  );

async function expectReadable(page: Page, mention: RegExp | null = /Indemnité forfaitaire/) {
  const reflow = page.locator('[data-document-reflow]');
  await reflow.waitFor();
  expect(await page.locator('[data-document-page]').count()).toBe(0);
  // Every line and every total row, and what they hold, at 14 px at least.
  for (const selector of [
    '[data-reflow-line]',
    '[data-reflow-line] *',
    '[data-reflow-totals] [data-total]',
    '[data-reflow-totals] [data-total] *',
    ...(mention ? ['[data-legal-mentions] p'] : []),
  ])
    expect(await smallestFont(page, selector), selector).toBeGreaterThanOrEqual(14);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  // The legal mentions travel with the document (C. com. L441-10: penalties and the recovery indemnity).
  if (mention) await reflow.locator('[data-legal-mentions]').getByText(mention).waitFor();
  return reflow;
}

/** The bar at the bottom is on screen, whatever the scroll. */
async function expectBarInReach(page: Page) {
  const bar = page.getByRole('navigation', { name: 'Actions du document' });
  for (const y of [0, 100_000]) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForTimeout(50);
    const box = await bar.boundingBox();
    expect(box).not.toBeNull();
    expect(Math.round((box?.y ?? 0) + (box?.height ?? 0))).toBeLessThanOrEqual(PHONE.height);
    expect(box?.y ?? 0).toBeGreaterThan(PHONE.height - 120);
  }
  return bar;
}

describe('documents on a phone', () => {
  it('the share pages of an invoice and of an estimate reflow to one column, actions at the bottom', async () => {
    const { session } = suite;
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, {
      customer_id: customerId,
      items: [
        line('Création du logo et de la charte graphique', 1, 1200, 20, { description: 'Trois pistes, deux allers-retours' }),
        line('Impression des cartes de visite', 500, 0.35, 20, { discount_type: 'percent', discount_value: 10 }),
      ],
    });
    const estimate = await issued(session, { type: 'estimate', customer_id: customerId, items: [line('Refonte du site', 1, 3400)] });

    for (const theme of ['light', 'dark'] as const) {
      const { context, page } = await newPage(suite.browser, suite.server.url, { ...PHONE, colorScheme: theme });
      await page.goto(`/share/${invoice.uuid}`);
      const reflow = await expectReadable(page);
      await reflow.getByText('Création du logo et de la charte graphique').waitFor();
      await reflow
        .locator('[data-total=total]')
        .getByText(/1[\s\u202f]?629,00/)
        .waitFor();
      expect(await reflow.getByRole('link', { name: 'Voir le PDF (A4)' }).getAttribute('href')).toBe(`/documents/download/${invoice.uuid}`);
      const bar = await expectBarInReach(page);
      expect(await bar.getByRole('link', { name: 'Télécharger le PDF' }).getAttribute('href')).toBe(`/documents/download/${invoice.uuid}`);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `reflow-share-invoice-${theme}`);
      await screenshot(page, `reflow-share-invoice-${theme}-screen`, { fullPage: false });
      await expectNoSeriousViolations(page, `share invoice on a phone ${theme}`);

      await page.goto(`/share/${estimate.uuid}`);
      await expectReadable(page, null);
      const answerBar = await expectBarInReach(page);
      await answerBar.getByRole('button', { name: 'Accepter ou refuser' }).click();
      const answer = page.getByRole('region', { name: 'Réponse au devis' });
      await answer.getByRole('button', { name: 'Accepter', exact: true }).waitFor();
      expect(await answer.isVisible()).toBe(true);
      await page.evaluate(() => window.scrollTo(0, 0));
      await screenshot(page, `reflow-share-estimate-${theme}`);
      await context.close();
    }

    // Above 600 px nothing changes: the A4 pages, the download button at the top, no bar.
    const { context, page } = await newPage(suite.browser, suite.server.url, WIDE);
    await page.goto(`/share/${invoice.uuid}`);
    await page.locator('[data-render-ready="true"]').waitFor();
    expect(await page.locator('[data-document-page]').count()).toBeGreaterThan(0);
    expect(await page.locator('[data-document-reflow]').count()).toBe(0);
    expect(await page.getByRole('navigation', { name: 'Actions du document' }).count()).toBe(0);
    await context.close();
  }, 150_000);

  it('the document view in the app reflows too, with the PDF one tap away', async () => {
    const { session } = suite;
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Audit de marque', 2, 450)] });
    for (const theme of ['light', 'dark'] as const) {
      const { context, page } = await suite.loggedIn({ ...PHONE, colorScheme: theme });
      await context.addInitScript((t) => {
        if (!localStorage.getItem('facturier.display'))
          localStorage.setItem('facturier.display', JSON.stringify({ theme: t, theme_mode: t }));
      }, theme);
      await page.goto(`/invoices/${invoice.id}/view`);
      // The first visit loads the app's chunks on a busy machine.
      await page.locator('[data-document-reflow]').waitFor({ timeout: 30_000 });
      const reflow = await expectReadable(page);
      await reflow.getByText('Audit de marque').waitFor();
      await reflow
        .locator('[data-total=total]')
        .getByText(/1[\s\u202f]?080,00/)
        .waitFor({ timeout: 30_000 });
      expect(await reflow.getByRole('link', { name: 'Voir le PDF (A4)' }).getAttribute('href')).toBe(`/documents/download/${invoice.uuid}`);
      await screenshot(page, `reflow-view-invoice-${theme}`);
      await context.close();
    }
  }, 120_000);
});
