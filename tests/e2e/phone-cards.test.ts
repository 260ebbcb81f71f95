import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite, forEachLook, PHONE, PHONE_LOOKS, screenshot, WIDE } from '../helpers/browser';
import { expectNoSeriousViolations } from '../helpers/axe';
import { issued, line, readyToInvoice } from '../helpers/documents';

/** The last tables on a phone (payments, a customer's documents, the appointments list) become cards too. */
const suite = browserSuite();

/** Nothing scrolls sideways, and the given text sits inside the screen. */
async function onScreen(page: Page, box: { x: number; width: number } | null) {
  expect(box).not.toBeNull();
  expect((box?.x ?? 999) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
}

describe('the remaining tables are cards on a phone', () => {
  it('payments, a customer’s documents and the appointments list; tables again on a wide screen', { timeout: 180_000 }, async () => {
    const { session } = suite;
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, date: '2026-11-02', items: [line('Création du logo', 1, 1000)] });
    expect(
      (
        await session.rest('POST', `/api/documents/${invoice.id}/payments`, {
          date: '2026-11-10',
          amount: 300,
          method: 'card',
          reference: 'CB-42',
        })
      ).status,
    ).toBe(201);
    const day = '2026-11-18';
    expect(
      (
        await session.rest('POST', '/api/appointments', {
          title: 'Point chantier',
          date: day,
          start: '09:30',
          end: '10:30',
          customer_id: customerId,
          location: '12 rue de la Paix, Paris',
          note: '',
        })
      ).status,
    ).toBe(201);

    await forEachLook(
      suite,
      async (page, { theme }) => {
        // A document's payments: date, amount, method and the two actions on one card.
        await page.goto(`/invoices/${invoice.id}/payments`);
        const payments = page.getByRole('list', { name: 'Paiements' });
        const payment = payments.getByRole('listitem').first();
        await payment.getByText('10/11/2026').waitFor();
        expect(await page.locator('main table').count()).toBe(0);
        for (const text of [/300,00/, 'Carte bancaire', 'CB-42']) await payment.getByText(text).first().waitFor();
        await onScreen(page, await payment.getByRole('button', { name: 'Annuler', exact: true }).boundingBox());
        await payment.getByRole('button', { name: 'Modifier' }).click();
        await page.getByRole('heading', { name: 'Modifier le paiement' }).waitFor();
        await screenshot(page, `phone-payments-${theme}`);
        await expectNoSeriousViolations(page, `payments cards ${theme}`);

        // A customer's documents: number, total, type and status.
        await page.goto(`/customers/${customerId}`);
        const documents = page.getByRole('list', { name: 'Documents du client' });
        const doc = documents.getByRole('listitem').filter({ hasText: String(invoice.number) });
        await doc.waitFor();
        expect(await page.getByRole('region', { name: 'Documents' }).locator('table').count()).toBe(0);
        for (const text of [/1[\s\u202f.]?200,00/, 'Facture', 'Partiellement']) await doc.getByText(text).first().waitFor();
        await onScreen(page, await doc.getByText('Partiellement').boundingBox());
        await page.getByRole('region', { name: 'Documents' }).scrollIntoViewIfNeeded();
        await screenshot(page, `phone-customer-documents-${theme}`);
        await expectNoSeriousViolations(page, `customer documents cards ${theme}`);
        // The card's number opens the document.
        await doc.getByRole('link', { name: String(invoice.number) }).click();
        await page.waitForURL(new RegExp(`/invoices/${invoice.id}/view$`));

        // The appointments list: hours, title (opens it), customer and status.
        await page.goto(`/appointments?view=list&date=${day}`);
        const appointments = page.getByRole('list', { name: /^Rendez-vous du / });
        const appointment = appointments.getByRole('listitem').filter({ hasText: 'Point chantier' });
        await appointment.waitFor();
        expect(await page.locator('main table').count()).toBe(0);
        for (const text of ['09:30 – 10:30', 'Boulangerie Martin', 'Prévu']) await appointment.getByText(text).first().waitFor();
        await onScreen(page, await appointment.getByText('09:30 – 10:30').boundingBox());
        await screenshot(page, `phone-appointments-list-${theme}`);
        await expectNoSeriousViolations(page, `appointments cards ${theme}`);
        await appointment.getByRole('button', { name: 'Point chantier' }).click();
        await page.getByRole('dialog', { name: 'Modifier le rendez-vous' }).waitFor();
      },
      { looks: PHONE_LOOKS },
    );

    // On a wide screen the same lists stay tables.
    const { page } = await suite.loggedIn(WIDE);
    await page.goto(`/invoices/${invoice.id}/payments`);
    await page.getByRole('table', { name: 'Paiements' }).getByRole('cell', { name: '10/11/2026' }).waitFor();
    await page.goto(`/customers/${customerId}`);
    await page
      .getByRole('table', { name: 'Documents du client' })
      .getByRole('link', { name: String(invoice.number) })
      .waitFor();
    await page.goto(`/appointments?view=list&date=${day}`);
    await page
      .getByRole('table', { name: /^Rendez-vous du / })
      .getByRole('cell', { name: '09:30 – 10:30' })
      .waitFor();
    await page.context().close();
  });
});
