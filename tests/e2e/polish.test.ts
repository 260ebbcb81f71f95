import { describe, expect, it } from 'vitest';
import { browserSuite, screenshot } from '../helpers/browser';
import { draft, line, readyToInvoice } from '../helpers/documents';

const suite = browserSuite();

describe('search by keyboard (issue 23)', () => {
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
