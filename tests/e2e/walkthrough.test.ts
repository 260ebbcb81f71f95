import { describe, expect, it } from 'vitest';
import { browserSuite, forEachLook, look, PHONE, PHONE_LOOKS, screenshot } from '../helpers/browser';
import { expectNoSeriousViolations } from '../helpers/axe';
import { issued, line, owedLabel, readyToInvoice } from '../helpers/documents';
import { FRENCH_POSTCODE_MESSAGE } from '../../src/shared/schemas/customer';
import { withFrenchSpaces } from '../../src/shared/typography';

/** Walked through as a new user: what that walk found still wrong, each fixed and kept so. */
const suite = browserSuite();
/** Light on a wide screen, dark on a phone: both themes and both sizes, in two runs. */
const TWO_LOOKS = [look('light', 'wide'), look('dark', 'phone')];

describe('the walkthrough as a new user', () => {
  it('Infos de l’entreprise: a French postcode of 4 digits is marked beside its field, and cleared once typed again', async () => {
    await forEachLook(
      suite,
      async (page, { name, viewport }) => {
        await page.goto('/settings/organization');
        const postcode = page.getByLabel('Code postal');
        await postcode.fill('7501');
        await page.getByRole('button', { name: 'Enregistrer' }).click();
        await page.getByTestId('snackbar').getByText('Un champ est à corriger : il est signalé dans le formulaire').waitFor();
        // The snackbar says the field is marked: it is, with the reason under it, and it has the focus.
        await expect.poll(() => postcode.getAttribute('aria-invalid')).toBe('true');
        const described = (await postcode.getAttribute('aria-describedby')) ?? '';
        const message = await page
          .locator(
            described
              .split(' ')
              .map((id) => `[id="${id}"]`)
              .join(', '),
          )
          .allInnerTexts();
        expect(message).toContain(withFrenchSpaces(FRENCH_POSTCODE_MESSAGE)); // printed with its no-break space
        await expect.poll(() => postcode.evaluate((el) => el === document.activeElement)).toBe(true);
        // The unsaved-changes notice beside Save is read whole, on a phone too (it was pushed off the left edge).
        const notice = await page.getByText('Modifications non enregistrées').boundingBox();
        expect(notice?.x ?? -1).toBeGreaterThanOrEqual(0);
        expect((notice?.x ?? 0) + (notice?.width ?? 0)).toBeLessThanOrEqual(viewport.width);
        await screenshot(page, `walk-organization-postcode-${name}`);
        await expectNoSeriousViolations(page, `organisation postcode ${name}`);
        await postcode.fill('75011');
        await expect.poll(() => postcode.getAttribute('aria-invalid')).not.toBe('true');
      },
      { looks: TWO_LOOKS },
    );
  });

  it('search: a total typed as an amount finds the invoice, and ↓ then Entrée opens it', async () => {
    const { session } = suite;
    const { customerId } = await readyToInvoice(session);
    // 1552 HT + 20 % = 1862,40 TTC.
    const invoice = await issued(session, { customer_id: customerId, date: '2026-11-24', items: [line('Étude lumière', 1, 1552)] });
    await forEachLook(
      suite,
      async (page, { name }) => {
        await page.goto('/');
        await page.getByRole('heading', { name: /Bonjour/ }).waitFor();
        await page.keyboard.press('Control+k');
        const field = page.getByRole('combobox', { name: 'Rechercher' });
        await field.fill('1 862,40 €');
        const found = page.getByRole('option', { name: new RegExp(invoice.number) });
        await found.waitFor();
        await screenshot(page, `walk-search-amount-${name}`);
        await expectNoSeriousViolations(page, `search by amount ${name}`);
        // ↓ walks to the next result and wraps to the first when there is one only; Entrée opens the one reached.
        await field.press('ArrowDown');
        await expect.poll(() => found.getAttribute('aria-selected')).toBe('true');
        await field.press('Enter');
        await page.waitForURL(new RegExp(`/invoices/${invoice.id}/view$`));
      },
      { looks: TWO_LOOKS },
    );
  });

  it('« Factures récurrentes » is a tab of the documents, reached from any list; its empty state says « récurrentes »', async () => {
    await forEachLook(
      suite,
      async (page, { name }) => {
        await page.goto('/invoices');
        const tabs = page.getByRole('navigation', { name: 'Types de documents' });
        await tabs.getByRole('link', { name: 'Factures récurrentes' }).click();
        await page.waitForURL(/\/recurring$/);
        await page.getByText('Pas encore de factures récurrentes').waitFor();
        expect(await tabs.getByRole('link', { name: 'Factures récurrentes' }).getAttribute('aria-current')).toBe('page');
        await screenshot(page, `walk-recurring-tab-${name}`);
        await expectNoSeriousViolations(page, `recurring tab ${name}`);
      },
      { looks: TWO_LOOKS },
    );
  });

  it('on a phone, the tab of the list shown is scrolled into the strip, not left off-screen', async () => {
    await forEachLook(
      suite,
      async (page, { name }) => {
        for (const base of ['/credits', '/deliveries', '/recurring']) {
          await page.goto(base);
          const current = page.getByRole('navigation', { name: 'Types de documents' }).locator('[aria-current="page"]');
          await current.waitFor();
          await expect
            .poll(async () => {
              const box = await current.boundingBox();
              return box !== null && box.x >= 0 && box.x + box.width <= PHONE.width;
            })
            .toBe(true);
        }
        await screenshot(page, `walk-tabs-${name}`);
      },
      { looks: PHONE_LOOKS },
    );
  });
  it('the dashboard’s latest documents are cards on a phone, with their total and status on screen; a table when wide', async () => {
    const { session } = suite;
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, date: '2026-11-24', items: [line('Pose de luminaires', 3, 517.33)] });
    await forEachLook(
      suite,
      async (page, { name }) => {
        await page.goto('/');
        const latest = page.getByTestId('latest-documents');
        const card = latest.getByRole('listitem').filter({ hasText: invoice.number });
        await card.waitFor();
        expect(await latest.getAttribute('data-shape')).toBe('cards');
        for (const text of ['1862,39', owedLabel(invoice)]) {
          const box = await card.getByText(text).first().boundingBox();
          expect(box).not.toBeNull();
          expect((box?.x ?? 999) + (box?.width ?? 0)).toBeLessThanOrEqual(PHONE.width);
        }
        expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
        await card.scrollIntoViewIfNeeded();
        await screenshot(page, `walk-dashboard-latest-${name}`);
        await expectNoSeriousViolations(page, `dashboard latest ${name}`);
        // The card opens its document, as the row does.
        await card.getByText('Pose de luminaires').or(card.getByText('Boulangerie Martin')).first().click();
        await page.waitForURL(new RegExp(`/invoices/${invoice.id}/view$`));
      },
      { looks: PHONE_LOOKS },
    );
    const { page } = await suite.loggedIn({ width: 1280, height: 900 });
    await page.goto('/');
    await page.getByTestId('latest-documents').getByRole('row').filter({ hasText: invoice.number }).waitFor();
    expect(await page.getByTestId('latest-documents').getAttribute('data-shape')).toBe('table');
    await page.context().close();
  });
});
