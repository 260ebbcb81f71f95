import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import path from 'node:path';
import { ARTIFACTS, browserSuite, chooseOption, chosenOption, dialogLayerReady, optionsOf } from '../helpers/browser';
import { defined } from '../../src/shared/defined';

const suite = browserSuite();

async function open(width = 1600) {
  const { context, page } = await suite.loggedIn({
    width,
    height: 1000,
  });
  await page.goto('/settings/document');
  // The first render waits for the fonts and a measuring pass: more than a click's worth of time on a busy machine.
  await preview(page).getByText('Boulangerie Martin').first().waitFor({ timeout: 20_000 });
  return { context, page };
}

/** The drawn pages (not the renderer's hidden measuring copy). */
/** The viewport, as a person sees it: the form and its preview side by side (a full-page shot stretches the sticky parts). */
const screenshot = (page: Page, name: string) => page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });

const preview = (page: Page) => page.getByTestId('template-preview').locator('[data-document-page]');

/** Where the seller's name sits below the top of the first page, in unscaled px: it moves with the top margin. */
async function sellerOffset(page: Page): Promise<number> {
  return page.getByTestId('template-preview').evaluate((stage) => {
    const page = stage.querySelector('[data-document-page][data-page="1"]') as HTMLElement;
    const walker = document.createTreeWalker(page, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (node.textContent?.includes('Atelier Fontaine')) {
        const range = document.createRange();
        range.selectNodeContents(node);
        const scale = page.getBoundingClientRect().width / 794;
        return (range.getBoundingClientRect().top - page.getBoundingClientRect().top) / scale;
      }
    }
    return Number.NaN;
  });
}

const columnHeader = (page: Page, name: string) =>
  page.getByTestId('template-preview').locator('[data-document-page][data-page="1"]').getByRole('columnheader', { name, exact: true });
const tvaHeader = (page: Page) => columnHeader(page, 'TVA');

describe('Paramètres → Apparence (the template designer)', () => {
  it('margins, a header text and a hidden column show in the live preview, are saved, and survive a reload', async () => {
    const { context, page } = await open();
    await screenshot(page, 'template-designer-initial');

    // Mise en page: a 4 cm top margin on the first page pushes its content down by 2.5 cm (≈ 94.5 px).
    const before = await sellerOffset(page);
    await page.getByLabel('Haut (1re page)').fill('4');
    await expect.poll(() => sellerOffset(page), { timeout: 5000 }).toBeGreaterThan(before + 80);
    await page.getByText('Modifications non enregistrées').waitFor();

    // A bad value: a French message beside the field and in the refused save, the preview keeps the last valid pages.
    await page.getByLabel('Bas (1re page)').fill('12');
    await page.getByText('10 au plus').waitFor();
    await page.getByText('Un champ est à corriger : l’aperçu montre la dernière version valide.').waitFor();
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    await page.getByTestId('snackbar').getByText('Marges › première page › bas : 10 au plus').waitFor();
    await page.getByLabel('Bas (1re page)').fill('1.5');

    // Éléments: a text under the header, which the preview shows.
    await page.getByRole('tab', { name: 'Éléments' }).click();
    const lastRow = page.getByRole('region', { name: 'Ligne 3, colonne 1' });
    await chooseOption(lastRow, 'Élément à ajouter', 'Texte libre');
    await lastRow.getByRole('button', { name: 'Ajouter', exact: true }).click();
    await lastRow.getByLabel('Texte', { exact: true }).fill('Merci pour votre confiance');
    await preview(page).getByText('Merci pour votre confiance').waitFor();
    // Keyboard reorder: the text goes above the header note.
    await lastRow.getByRole('button', { name: 'Monter Texte libre' }).click();
    expect(await lastRow.getByTestId('template-element').first().textContent()).toContain('Merci pour votre confiance');
    // Pointer reorder: dragged by its grip onto the customer of row 2, it lands just before it.
    const secondRow = page.getByRole('region', { name: 'Ligne 2, colonne 1' });
    const grip = lastRow
      .getByTestId('template-element')
      .filter({ hasText: 'Merci pour votre confiance' })
      .getByTitle('Glisser pour déplacer');
    await grip.dragTo(secondRow.getByTestId('template-element').filter({ hasText: 'Client' }));
    await expect
      .poll(() => secondRow.getByTestId('template-element').allTextContents())
      .toEqual([expect.stringContaining('Merci pour votre confiance'), expect.stringContaining('Client')]);
    expect(await lastRow.getByText('Merci pour votre confiance').count()).toBe(0);
    await preview(page).getByText('Merci pour votre confiance').waitFor();
    await screenshot(page, 'template-designer-elements');

    // Tableau: the VAT column is mandatory on invoices (CGI art. 242 nonies A): hiding it is warned about and the save
    // refused, before any request; the position column may go.
    await page.getByRole('tab', { name: 'Tableau' }).click();
    expect(await tvaHeader(page).count()).toBe(1);
    await page.getByLabel('Afficher la colonne TVA').locator('xpath=..').click(); // a kit checkbox: its hidden input is toggled through its label
    await expect.poll(() => tvaHeader(page).count(), { timeout: 5000 }).toBe(0);
    const vatMissing = 'Le modèle doit garder la colonne de TVA (mention obligatoire sur les factures)';
    await page.getByTestId('template-mandatory').getByText(vatMissing).waitFor();
    await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    await page.getByTestId('snackbar').getByText(vatMissing).waitFor();
    await screenshot(page, 'template-designer-mandatory');
    await page.getByLabel('Afficher la colonne TVA').locator('xpath=..').click(); // a kit checkbox: its hidden input is toggled through its label
    await page.getByTestId('template-mandatory').waitFor({ state: 'detached' });
    expect(await columnHeader(page, '#').count()).toBe(1);
    await page.getByLabel('Afficher la colonne #').locator('xpath=..').click(); // a kit checkbox: its hidden input is toggled through its label
    await expect.poll(() => columnHeader(page, '#').count(), { timeout: 5000 }).toBe(0);
    await page.getByTestId('table-width-sum').getByText('86\u202f%').waitFor();
    await page.getByRole('button', { name: 'Ajuster à 100 %' }).click();
    await page.getByTestId('table-width-sum').getByText('100\u202f%').waitFor();
    await screenshot(page, 'template-designer-table');

    // Styles: the SPEC option lists, with their French labels.
    await page.getByRole('tab', { name: 'Styles' }).click();
    const sizes = await optionsOf(page, 'Taille de police');
    expect(sizes[0]).toBe('Par défaut');
    expect(sizes).toHaveLength(92);
    expect(sizes.at(-1)).toBe('100 px');
    expect(await optionsOf(page, 'Graisse')).toContain('700 — Gras');
    await page.getByLabel('Couleur de fond', { exact: true }).fill('#112233');
    await page.getByLabel('Couleur du texte', { exact: true }).fill('#FFFFFF');
    await screenshot(page, 'template-designer-styles');

    await page.getByRole('button', { name: 'Enregistrer', exact: true }).click();
    await page.getByTestId('snackbar').getByText('Mise à jour avec succès').waitFor();
    await page.getByText('Modifications non enregistrées').waitFor({ state: 'detached' });

    const stored = (await suite.session.rest('GET', '/api/settings?key=document')).body.data;
    expect(stored.margins.first_page.top).toBe(4);
    expect(stored.header[1].columns[0].elements).toEqual([{ type: 'text', content: 'Merci pour votre confiance' }, { type: 'customer' }]);
    expect(stored.table.cols.find((c: { type: string }) => c.type === 'position').visible).toBe(false);
    expect(stored.table.cols.find((c: { type: string }) => c.type === 'vat').visible).toBe(true);
    expect(stored.table.style.thead).toMatchObject({
      background_color: '#112233',
      color: '#FFFFFF',
    });

    await page.reload();
    await preview(page).getByText('Merci pour votre confiance').waitFor();
    expect(await page.getByLabel('Haut (1re page)').inputValue()).toBe('4');
    expect(await columnHeader(page, '#').count()).toBe(0);
    expect(await sellerOffset(page)).toBeGreaterThan(before + 80);
    await screenshot(page, 'template-designer-saved');
    await context.close();
  });

  it('numbering samples follow the fields; a ready-made template replaces the layout after a confirmation; undo and leave guard', async () => {
    const { context, page } = await open(1280);
    await page.getByRole('tab', { name: 'Numérotation' }).click();
    const year = new Date().getFullYear();
    expect(await page.getByTestId('number-sample-invoice').textContent()).toBe(`F${year}-0042`);
    const invoice = page.getByRole('region', {
      name: 'Numérotation : Facture',
    });
    await invoice.getByLabel('Préfixe').fill('FA-{year}{month}-');
    await invoice.getByLabel('Chiffres').fill('6');
    // A first change may come before the template's check (loaded when idle or at that change): the samples follow it.
    await expect.poll(() => page.getByTestId('number-sample-invoice').textContent()).toBe(`FA-${year}03-000042`);
    await page.getByLabel('Séparateur').fill('/');
    await expect.poll(() => page.getByTestId('customer-number-sample').textContent()).toBe('CL/00007');
    await preview(page).getByText('FA-202603-000042').first().waitFor();
    await screenshot(page, 'template-designer-numbering');

    await page.getByRole('button', { name: 'Appliquer le modèle Moderne' }).click();
    await dialogLayerReady(page);
    await page.getByRole('alertdialog').getByText('Remplacer la mise en page actuelle ?').waitFor();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Remplacer' }).click();
    const firstPage = page.getByTestId('template-preview').locator('[data-document-page][data-page="1"]');
    await expect.poll(() => firstPage.evaluate((el) => getComputedStyle(el).fontFamily), { timeout: 5000 }).toContain('Figtree');
    await page.getByRole('tab', { name: 'Mise en page' }).click();
    expect(await chosenOption(page, 'Police du document')).toBe('Figtree');
    // Numbers read the French way in the kit's number input.
    expect(await page.getByLabel('Haut (1re page)').inputValue()).toBe('1,2');
    // The numbering is the business's own: a look does not change it.
    await page.getByRole('tab', { name: 'Numérotation' }).click();
    expect(await page.getByTestId('number-sample-invoice').textContent()).toBe(`FA-${year}03-000042`);
    await screenshot(page, 'template-designer-preset-moderne');

    await page.getByRole('link', { name: 'Articles' }).click();
    await dialogLayerReady(page);
    await page.getByRole('alertdialog').getByText('Vos modifications ne sont pas enregistrées. Quitter quand même ?').waitFor();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Annuler' }).click();
    expect(page.url()).toContain('/settings/document');

    await page.getByRole('button', { name: 'Annuler les modifications' }).click();
    expect(await page.getByTestId('number-sample-invoice').textContent()).toBe(`F${year}-0042`);
    await page.getByRole('link', { name: 'Articles' }).click();
    await page.waitForURL('**/items');
    await context.close();
  });

  it('draws page 1 of the sample invoice in each ready-made template (kept as artifacts to look at)', async () => {
    // Twice the pixels, so the small print of a scaled-down page stays readable in the PNG.
    const context = await suite.browser.newContext({
      baseURL: suite.server.url,
      viewport: { width: 1600, height: 1100 },
      deviceScaleFactor: 2,
      locale: 'fr-FR',
      timezoneId: 'Europe/Paris',
    });
    await context.addCookies([
      { name: 'session', value: defined(defined(suite.session.cookie, 'suite.session.cookie').split('=')[1]), url: suite.server.url },
    ]);
    const page = await context.newPage();
    await page.goto('/settings/document');
    const firstPage = page.getByTestId('template-preview').locator('[data-document-page][data-page="1"]');
    await firstPage.getByText('Boulangerie Martin').first().waitFor({ timeout: 20_000 });
    // Each look is recognised in the drawn page by its font and its top margin (cm × 37.8 px).
    for (const [label, id, font, top] of [
      ['Classique', 'classique', 'Karla', 1.5],
      ['Moderne', 'moderne', 'Figtree', 1.2],
      ['Épuré', 'epure', 'Roboto', 2],
    ] as const) {
      await page.getByRole('button', { name: `Appliquer le modèle ${label}` }).click();
      await dialogLayerReady(page);
      await page.getByRole('alertdialog').getByRole('button', { name: 'Remplacer' }).click();
      await page.getByRole('alertdialog').waitFor({ state: 'detached' });
      await expect.poll(() => firstPage.evaluate((el) => getComputedStyle(el).fontFamily), { timeout: 5000 }).toContain(font);
      await expect
        .poll(() => firstPage.evaluate((el) => parseFloat(getComputedStyle(el).paddingTop)), { timeout: 5000 })
        .toBeCloseTo(top * 37.8, 0);
      await page.waitForFunction(() => document.querySelector('[data-document-pages]')?.getAttribute('data-render-ready') === 'true');
      await page.evaluate(() => document.fonts.ready);
      await firstPage.screenshot({ path: path.join(ARTIFACTS, `template-preset-${id}.png`) });
    }
    await context.close();
  });
});
