// The designer previews the organisation's own documents: its logo, its identity and its latest document of the chosen
// type (the sample only when it has none), and shows them full width on demand (a button, Échap to leave).
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS, browserSuite, chooseOption, forEachLook, WIDE_LOOKS } from '../helpers/browser';
import { draft, line } from '../helpers/documents';

const suite = browserSuite();

/** The viewport as a person sees it (a full-page shot stretches the sticky preview). */
const shot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
const drawn = (page: Page) => page.getByTestId('template-preview').locator('[data-document-page][data-page="1"]');

describe('Paramètres → Apparence with the business’s own data', () => {
  it('its logo, identity and latest invoice; the sample under its name for a type it has none of; full width and back with Échap', async () => {
    const session = suite.session;
    expect(
      (
        await session.rest('PUT', '/api/organization', {
          name: 'Studio Lumière',
          legal_form: 'SAS',
          siret: '552 032 534 00646',
          rcs_city: 'Nantes',
          vat_number: 'FR27552032534',
          address: { line1: '4 quai de la Fosse', postal_code: '44000', city: 'Nantes' },
        })
      ).status,
    ).toBe(200);
    const customer = await session.rest('POST', '/api/customers', {
      name: 'Café des Arts',
      business_id: '732 829 320',
      address: { line1: '9 rue Crébillon', postal_code: '44000', city: 'Nantes' },
    });
    expect(customer.status).toBe(201);
    await draft(session, { type: 'invoice', customer_id: customer.body.data.id, items: [line('Reportage d’inauguration', 1, 900)] });

    await forEachLook(
      suite,
      async (page, { theme }) => {
        await page.setViewportSize({ width: 1600, height: 1000 });
        // A logo drawn by the browser itself: a real PNG, visible in the preview.
        await page.goto('/settings/document');
        const logo = await page.evaluate(() => {
          const canvas = document.createElement('canvas');
          canvas.width = 240;
          canvas.height = 80;
          const g = canvas.getContext('2d') as CanvasRenderingContext2D;
          g.fillStyle = '#0b6e4f';
          g.fillRect(0, 0, 240, 80);
          g.fillStyle = '#ffffff';
          g.font = 'bold 34px sans-serif';
          g.fillText('LUMIÈRE', 28, 52);
          return canvas.toDataURL('image/png');
        });
        expect((await session.rest('POST', '/api/organization/logo', { data_url: logo })).status).toBe(200);
        await page.reload();

        // The latest invoice, as its customer will receive it: its customer, its line, the seller's identity and logo.
        await drawn(page).getByText('Reportage d’inauguration').waitFor({ timeout: 30_000 });
        await drawn(page).getByText('Café des Arts').first().waitFor();
        await drawn(page).getByText('Studio Lumière').first().waitFor();
        expect(await drawn(page).locator('img').count()).toBeGreaterThan(0);
        expect(await page.getByTestId('preview-source').textContent()).toBe('Votre dernier document de ce type (brouillon)');
        expect(await drawn(page).getByText('Boulangerie Martin').count()).toBe(0);
        await shot(page, `designer-own-invoice-${theme}`);

        // No quote yet: the sample's customer and lines, under the business's own name.
        await chooseOption(page, 'Document d’exemple', 'Devis');
        await drawn(page).getByText('Boulangerie Martin').first().waitFor();
        await drawn(page).getByText('Studio Lumière').first().waitFor();
        expect(await page.getByTestId('preview-source').textContent()).toBe(
          'Exemple\u00a0: aucun document de ce type pour l’instant, sous votre nom',
        );
        await chooseOption(page, 'Document d’exemple', 'Facture');
        await drawn(page).getByText('Reportage d’inauguration').waitFor();

        // Full width from the keyboard, and back with Échap, the focus on the button again.
        const narrow = (await drawn(page).boundingBox())?.width ?? 0;
        const open = page.getByRole('button', { name: 'Aperçu en grand' });
        await open.focus();
        await page.keyboard.press('Enter');
        const full = page.getByRole('dialog', { name: 'Aperçu en pleine largeur' });
        await full.waitFor();
        await expect.poll(async () => (await drawn(page).boundingBox())?.width ?? 0).toBeGreaterThan(narrow * 1.5);
        const leave = page.getByRole('button', { name: 'Réduire l’aperçu (Échap)' });
        expect(await leave.evaluate((button) => button === document.activeElement)).toBe(true);
        await shot(page, `designer-full-width-${theme}`);
        await page.keyboard.press('Escape');
        await full.waitFor({ state: 'detached' });
        await expect.poll(async () => (await drawn(page).boundingBox())?.width ?? 0).toBeLessThan(narrow + 2);
        expect(await open.evaluate((button) => button === document.activeElement)).toBe(true);
        // Escape left the preview only: the page is still the designer, unsaved nothing.
        await page.getByRole('tab', { name: 'Mise en page' }).waitFor();
      },
      { looks: WIDE_LOOKS },
    );
  });
});
