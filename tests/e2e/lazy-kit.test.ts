// Issue 22: the kit's Select and tooltip draw before Ark's code for them has arrived (it comes when the browser is idle
// or on hover or focus), and the document designer's panels come in their own chunks. Here each download is held back
// on purpose: what the user does meanwhile (a click, ArrowDown, a hover, a focus) is not lost once the code lands, and
// the page keeps its layout.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite, screenshot, selectNamed } from '../helpers/browser';
import { chunkOf } from '../helpers/built-chunks';

const suite = browserSuite();

/** Holds the download of `source` until `release()`; `asked()` says whether the page has asked for it yet. */
async function hold(page: Page, source: string) {
  let release = () => {};
  let asked = false;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(`**${chunkOf(source)}`, async (route) => {
    asked = true;
    await held;
    await route.continue();
  });
  return { release, asked: () => asked };
}

const ARK_SELECT = 'src/client/components/ui/select.tsx';
const ARK_TOOLTIP = 'src/client/components/ui/ark-tooltip.tsx';

describe('kit parts drawn before their code', () => {
  it('Select: ArrowDown on the stand-in opens the list and moves in it once the code lands; same place, same text', async () => {
    const { page, context } = await suite.loggedIn();
    const select = await hold(page, ARK_SELECT);
    await page.goto('/invoices');
    const status = selectNamed(page, 'Statut');
    await status.waitFor();
    expect(await status.innerText()).toBe('Tous');
    expect(await status.getAttribute('aria-expanded')).toBe('false');
    const before = await status.boundingBox();
    await screenshot(page, 'lazy-kit-select-stand-in');

    await status.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(select.asked).toBe(true);
    expect(await page.getByRole('listbox').count()).toBe(0);
    select.release();
    const list = page.getByRole('listbox');
    await list.waitFor();
    expect(await status.getAttribute('aria-expanded')).toBe('true');
    // Ark's ArrowDown: open, and the next option highlighted.
    await expect.poll(() => list.locator('[role=option][data-highlighted]').count()).toBe(1);
    const after = await status.boundingBox();
    expect(after?.x).toBeCloseTo(before?.x ?? -1, 0);
    expect(after?.width).toBeCloseTo(before?.width ?? -1, 0);
    expect(after?.height).toBeCloseTo(before?.height ?? -1, 0);
    await page.keyboard.press('Escape');
    await expect.poll(() => status.getAttribute('aria-expanded')).toBe('false');
    await context.close();
  });

  it('Select: a click on the stand-in opens the list once the code lands, and the option picked filters', async () => {
    const { page, context } = await suite.loggedIn();
    const select = await hold(page, ARK_SELECT);
    await page.goto('/invoices');
    const status = selectNamed(page, 'Statut');
    await status.click();
    await expect.poll(select.asked).toBe(true);
    select.release();
    const list = page.getByRole('listbox');
    await list.waitFor();
    await list.getByRole('option', { name: 'Exigible', exact: true }).click();
    await expect.poll(() => status.innerText()).toBe('Exigible');
    await expect.poll(() => new URL(page.url()).search).toContain('status=');
    await context.close();
  });

  it('tooltip: hovered or focused before its code lands, it shows once there, and the focus stays', async () => {
    const { page, context } = await suite.loggedIn();
    const tooltip = await hold(page, ARK_TOOLTIP);
    await page.goto('/');
    const search = page.getByRole('button', { name: 'Rechercher' });
    await search.waitFor();
    await search.focus();
    await search.hover();
    await expect.poll(tooltip.asked).toBe(true);
    expect(await page.getByRole('tooltip').count()).toBe(0);
    tooltip.release();
    await page.getByRole('tooltip').getByText('Rechercher').waitFor();
    // The trigger was mounted anew inside Ark's tooltip: the focus came back to it.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('Rechercher');
    await screenshot(page, 'lazy-kit-tooltip');
    await context.close();
  });

  it('document designer: a panel not downloaded yet shows a spinner, then its fields', async () => {
    const { page, context } = await suite.loggedIn();
    const table = await hold(page, 'src/client/routes/settings/document-settings/table-section.tsx');
    await page.goto('/settings/document');
    const tabs = page.getByRole('tablist', { name: 'Sections de l’apparence' });
    await tabs.waitFor();
    await tabs.getByRole('tab', { name: 'Tableau' }).click();
    await page.getByRole('tabpanel').getByRole('status').waitFor();
    table.release();
    await page.getByRole('tabpanel').getByRole('checkbox').first().waitFor();
    expect(await page.getByRole('tabpanel').getByRole('status').count()).toBe(0);
    await screenshot(page, 'lazy-kit-designer-table');
    await context.close();
  });
});
