import { describe, expect, it } from 'vitest';
import { browserSuite, forEachLook, look, newPage, screenshot } from '../helpers/browser';
import { draft, issued, line, readyToInvoice, sellerIdentity } from '../helpers/documents';

const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const suite = browserSuite();

describe('search by keyboard', () => {
  it('↓ and ↑ walk the results, Enter opens the one reached, Escape closes', async () => {
    const { session } = suite;
    const { customerId } = await readyToInvoice(session);
    await session.rest('POST', '/api/customers', { name: 'Boulangerie Clavier', email: 'pain@clavier.test' });
    await draft(session, { customer_id: customerId, items: [line('Clavier mécanique', 2, 89)] });
    await session.rest('POST', '/api/items', { name: 'Clavier ergonomique', unit_price: 120 });

    const { page } = await suite.loggedIn({ height: 900 });
    await page.goto('/');
    await page.getByRole('button', { name: 'Rechercher' }).click();
    const field = page.getByRole('combobox', { name: 'Rechercher' });
    await field.fill('Clavier');
    const options = page.getByRole('option');
    await expect.poll(() => options.count()).toBeGreaterThanOrEqual(2);
    // The first result is reached at once; ↓ moves on, ↑ comes back, ↑ again wraps round to the last.
    expect(await options.nth(0).getAttribute('aria-selected')).toBe('true');
    await field.press('ArrowDown');
    expect(await options.nth(1).getAttribute('aria-selected')).toBe('true');
    expect(await field.getAttribute('aria-activedescendant')).toBe(await options.nth(1).getAttribute('id'));
    await field.press('ArrowUp');
    expect(await options.nth(0).getAttribute('aria-selected')).toBe('true');
    await screenshot(page, 'search-keyboard');
    await field.press('ArrowUp');
    const count = await options.count();
    expect(await options.nth(count - 1).getAttribute('aria-selected')).toBe('true');

    // Enter opens the customer reached (the first group is the customers).
    await field.press('Home');
    const first = (await options.nth(0).textContent()) ?? '';
    expect(first).toContain('Boulangerie Clavier');
    await field.press('Enter');
    await page.waitForURL(/\/customers\/\d+$/);
    await page.getByRole('combobox', { name: 'Rechercher' }).waitFor({ state: 'detached' });

    // Escape closes without going anywhere.
    const url = page.url();
    await page.getByRole('button', { name: 'Rechercher' }).click();
    await page.getByRole('combobox', { name: 'Rechercher' }).fill('Clavier');
    await expect.poll(() => page.getByRole('option').count()).toBeGreaterThanOrEqual(2);
    await page.keyboard.press('Escape');
    await page.getByRole('combobox', { name: 'Rechercher' }).waitFor({ state: 'detached' });
    expect(page.url()).toBe(url);
    await page.context().close();
  });
});

describe('duplicate customers', () => {
  it('warns on the same SIREN before creating, opens the existing one, or creates anyway', async () => {
    const { session } = suite;
    const existing = (
      await session.rest('POST', '/api/customers', { name: 'Menuiserie Durand', business_id: '552 032 534', email: 'contact@durand.test' })
    ).body.data;
    const { page } = await suite.loggedIn({ height: 1000 });
    await page.goto('/customers');
    await page.getByRole('button', { name: 'Nouveau client' }).click();
    const dialog = page.getByRole('dialog', { name: 'Nouveau client' });
    await dialog.getByLabel('Nom', { exact: true }).fill('Durand Menuiserie');
    await dialog.getByLabel('SIREN ou SIRET').fill('55203253400646');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    const warning = dialog.getByTestId('customer-duplicates');
    await warning.getByText(/même SIREN 552032534/).waitFor();
    await screenshot(page, 'customer-duplicate-warning');
    const before = (await session.rest('GET', '/api/customers?search=Durand')).body.total;
    expect(before).toBe(1);
    // Open the existing one instead.
    await warning.getByRole('link', { name: 'Ouvrir la fiche existante' }).click();
    await page.waitForURL(new RegExp(`/customers/${existing.id}$`));
    expect((await session.rest('GET', '/api/customers?search=Durand')).body.total).toBe(1);

    // Or create anyway: the second click creates.
    await page.goto('/customers');
    await page.getByRole('button', { name: 'Nouveau client' }).click();
    await dialog.getByLabel('Nom', { exact: true }).fill('Menuiserie Durand');
    await dialog.getByLabel('E-mail').fill('CONTACT@durand.test');
    await dialog.getByRole('button', { name: 'Enregistrer' }).click();
    await expect.poll(() => page.getByTestId('customer-duplicates').textContent()).toContain('même nom et même e-mail contact@durand.test');
    await screenshot(page, 'customer-duplicate-name-email');
    await dialog.getByRole('button', { name: 'Créer quand même' }).click();
    await page.waitForLoadState('networkidle');
    await screenshot(page, 'customer-duplicate-created');
    await page.getByTestId('snackbar').getByText('Ajouté avec succès').waitFor();
    expect((await session.rest('GET', '/api/customers?search=Durand')).body.total).toBe(2);
    await page.context().close();
  });
});

describe('an empty organisation', () => {
  it('shows the five-step checklist, ticks what is done, and hides it once all is done', async () => {
    const { session, server } = suite;
    // A newcomer of their own, so that nothing from the other tests is already done.
    const { Session } = await import('../helpers/clients');
    const { newUser } = await import('../helpers/clients');
    const newcomer = new Session(server.url);
    await newcomer.rest('POST', '/api/auth/register', newUser());
    const { context, page } = await newPage(suite.browser, server.url, { height: 1100 });
    await context.addCookies([{ name: 'session', value: String(newcomer.cookie).split('=')[1] ?? '', url: server.url }]);
    await page.goto('/');
    const card = page.getByTestId('onboarding-checklist');
    await card.getByText('0 étape faite sur 5').waitFor();
    expect(await card.getByRole('img', { name: 'À faire' }).count()).toBe(5);
    await screenshot(page, 'onboarding-checklist');
    await page.setViewportSize({ width: 390, height: 900 });
    await screenshot(page, 'onboarding-checklist-390');
    await newcomer.rest('POST', '/api/customers', { name: 'Premier Client' });
    await page.reload();
    await card.getByText('1 étape faite sur 5').waitFor();
    expect(await card.locator('li[data-done]').textContent()).toContain('Créer un premier client');
    // The rest done: identity, logo, an invoice, a reply-to address; the card is gone.
    expect((await newcomer.rest('PUT', '/api/organization', sellerIdentity)).status).toBe(200);
    expect((await newcomer.rest('POST', '/api/organization/logo', { data_url: PNG })).status).toBe(200);
    const customer = (await newcomer.rest('GET', '/api/customers')).body.data[0];
    await draft(newcomer, { customer_id: customer.id, items: [line('Conseil', 1, 100)] });
    const mail = (await newcomer.rest('GET', '/api/settings/email')).body;
    expect((await newcomer.rest('PUT', '/api/settings/email', { ...mail, reply_to: 'contact@atelier.test' })).status).toBe(200);
    await page.reload();
    await page.getByRole('heading', { name: /Bonjour/ }).waitFor();
    await page.getByText('Chiffre d’affaires HT par mois').waitFor();
    await page.waitForLoadState('networkidle');
    expect(await card.count()).toBe(0);
    void session;
    await context.close();
  });
});

describe('help and narrow screens', () => {
  it('« Aide » explains the first invoice, the legal mentions and the shortcuts; Ctrl+K opens the search', async () => {
    await forEachLook(
      suite,
      async (page, { theme, viewport }) => {
        await page.goto('/');
        await page.getByRole('heading', { name: /Bonjour/ }).waitFor();
        await page.keyboard.press('Control+k');
        await page.getByRole('combobox', { name: 'Rechercher' }).waitFor();
        await page.keyboard.press('Escape');
        await page.getByRole('button', { name: 'Aide' }).click();
        const help = page.getByRole('dialog', { name: 'Aide' });
        await help.getByRole('heading', { name: 'Votre première facture' }).waitFor();
        await help.getByRole('heading', { name: 'Les mentions légales' }).waitFor();
        await help.getByText('Ctrl + K').waitFor();
        await screenshot(page, `help-dialog-${theme}-${viewport.width}`);
      },
      { looks: [look('light', 'wide'), look('dark', 'phone')] },
    );
  });
});

describe('credit-note editor and the rail', () => {
  it('locks a credit note’s customer and shows no due date; rail icons keep 20 px at 120 % text size', async () => {
    const { session } = suite;
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Audit', 1, 500)] });
    const credit = (await session.rest('POST', `/api/documents/${invoice.id}/convert`, { type: 'credit' })).body.data;
    await forEachLook(
      suite,
      async (page, { theme, size, viewport }) => {
        await page.goto(`/credits/${credit.id}/edit`);
        const customer = page.getByTestId('credit-customer');
        await customer.waitFor();
        expect(await customer.getAttribute('readonly')).not.toBeNull();
        expect(await page.getByLabel('Date d’échéance').count()).toBe(0);
        expect(await page.getByLabel("Date d'échéance").count()).toBe(0);
        if (size === 'wide') {
          const icon = page.getByTestId('side-drawer').locator('a svg').first();
          // The rail is drawn once the display settings arrive; under load that is after the editor.
          // The rail may redraw once more (settings answer) between finding the icon and measuring it.
          await expect.poll(async () => (await icon.boundingBox())?.width, { timeout: 30_000 }).toBe(20);
        }
        await screenshot(page, `credit-editor-${theme}-${viewport.width}`);
      },
      // 120 % text size; the rail (folded drawer) where the screen is wide enough for it.
      { looks: [look('light', 'wide'), look('dark', 'phone')], display: ({ size }) => ({ rail: size === 'wide', font_size: 17 }) },
    );
  });
});
