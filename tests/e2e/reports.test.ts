import { describe, expect, it } from 'vitest';
import { browserSuite, chooseOption, forEachLook, newPage, screenshot, WIDE_LOOKS } from '../helpers/browser';
import { registered } from '../helpers/clients';
import { businessCustomer, issued, line, readyToInvoice, sellerIdentity } from '../helpers/documents';
import { BATCH_OVER_BUDGET } from '../../src/shared/api-limits';

const suite = browserSuite();

const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());
const year = Number(today.slice(0, 4));
/** The 10th of a month of this year or the last, never after today: invoices are issued in date order. */
const day = (y: number, month: number) => `${y}-${String(month).padStart(2, '0')}-10`;

describe('statistics in the browser', () => {
  it('an empty organisation: helpful empty states, no broken chart; the login page does not load the charts', async () => {
    const { page, context } = await suite.loggedIn();
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
    await page.goto('/reports');
    await page.getByRole('heading', { level: 1, name: 'Statistiques' }).waitFor();
    await page.getByText('Aucune facture émise sur cette période').waitFor();
    await page.getByText('Aucun client en retard').waitFor();
    expect(await page.locator('[data-testid^="report-"] svg rect').count()).toBe(0);
    await screenshot(page, 'reports-empty');
    expect(scripts.some((u) => /reports-page/.test(u))).toBe(true);
    await context.close();

    const anonymous = await suite.browser.newContext({ baseURL: suite.server.url });
    const login = await anonymous.newPage();
    const loginScripts: string[] = [];
    login.on('request', (r) => r.resourceType() === 'script' && loginScripts.push(r.url()));
    await login.goto('/auth/login');
    await login.getByRole('button', { name: 'Se connecter' }).waitFor();
    await login.waitForLoadState('networkidle');
    expect(loginScripts.length).toBeGreaterThan(0);
    expect(loginScripts.filter((u) => /reports-page/.test(u))).toEqual([]);
    await anonymous.close();
  });

  it('reports a batch had no budget left for are asked again alone, and drawn: no « Lot trop lourd » for the user', async () => {
    const { page, context } = await suite.loggedIn();
    // The server refuses a batch's calls once its first ones are heavy (a large organisation's first figures): here
    // every batch of reports answers its first call and refuses the others as the server does.
    const alone: string[] = [];
    let refused = 0;
    await page.route('**/api/trpc/**', async (route) => {
      const url = new URL(route.request().url());
      const paths = url.pathname.replace('/api/trpc/', '').split(',');
      if (!url.searchParams.has('batch')) {
        alone.push(...paths.filter((p) => p.startsWith('reports.')));
        return route.continue();
      }
      if (paths.length < 2 || !paths.some((p) => p.startsWith('reports.'))) return route.continue();
      const answer = await route.fetch();
      const answers = (await answer.json()) as unknown[];
      const refusal = (path: string) => ({
        error: {
          json: {
            message: BATCH_OVER_BUDGET,
            code: -32413,
            data: { code: 'PAYLOAD_TOO_LARGE', httpStatus: 413, path, messages: BATCH_OVER_BUDGET },
          },
        },
      });
      refused += paths.filter((p, i) => i > 0 && p.startsWith('reports.')).length;
      await route.fulfill({ response: answer, status: 207, json: answers.map((a, i) => (i === 0 ? a : refusal(paths[i] ?? ''))) });
    });
    await page.goto('/reports');
    await page.getByRole('heading', { level: 1, name: 'Statistiques' }).waitFor();
    await page.getByText('Aucune facture émise sur cette période').waitFor();
    await page.getByText('Aucun client en retard').waitFor();
    expect(refused).toBeGreaterThan(0);
    expect(alone.length).toBe(refused);
    expect(await page.getByText('Lot trop lourd').count()).toBe(0);
    await context.close();
  });

  it('a year of sales beside the previous one, receivables, margin and VAT, in light and dark; the dashboard too', async () => {
    const { customerId } = await readyToInvoice(suite.session);
    // Last year's invoices first, then this year's up to this month: numbering is chronological.
    for (let m = 1; m <= 12; m++)
      await issued(suite.session, {
        customer_id: customerId,
        date: day(year - 1, m),
        maturity: day(year - 1, m),
        items: [line('Conseil', 1, 800 + m * 40)],
      });
    const thisMonth = Number(today.slice(5, 7));
    for (let m = 1; m <= thisMonth; m++) {
      const date = m === thisMonth ? today : day(year, m);
      const invoice = await issued(suite.session, {
        customer_id: customerId,
        date,
        items: [line('Conseil', 1, 1000 + m * 75), line('Livre', 2, 25, 5.5, { kind: 'goods' })],
      });
      if (m % 3 !== 0) await suite.session.rest('POST', `/api/documents/${invoice.id}/payments`, { date, amount: invoice.total });
    }
    for (const m of [1, 4, 7, 10].filter((m) => m <= thisMonth))
      await suite.session.rest('POST', '/api/expenses', {
        date: day(year, m),
        supplier: 'Bureau Vallée',
        category: 'fournitures',
        label: 'Fournitures',
        amount: 360,
        vat: [{ rate: 20, amount: 60 }],
        status: 'paid',
      });

    const tag = (await suite.session.rest('POST', '/api/tags', { name: 'Artisans', scopes: ['customer'] })).body.data;
    await suite.session.rest('PUT', `/api/customers/${customerId}`, { ...businessCustomer, tag_ids: [tag.id] });

    await forEachLook(
      suite,
      async (page, { theme }) => {
        await page.goto('/reports');
        const turnover = page.getByTestId('report-chiffre-affaires');
        await turnover.locator('svg rect').first().waitFor();
        // Twelve months, this year's bars and last year's beside them.
        expect(await turnover.locator('svg rect').count()).toBe(24);
        // Short months under the axis, the year written once; the tooltip keeps the full month.
        expect(await turnover.locator('svg text', { hasText: /^janv\.$/ }).count()).toBe(1);
        expect(await turnover.locator('svg text', { hasText: new RegExp(`^${year}$`) }).count()).toBe(1);
        expect(await turnover.locator('svg rect title').first().textContent()).toMatch(new RegExp(`^janv\\. ${year} · `));
        // By item and by tag: a bar per line designation, one for the customer's tag.
        const items = page.getByTestId('report-articles');
        await items.locator('svg text', { hasText: 'Conseil' }).waitFor();
        await items.locator('svg text', { hasText: 'Livre' }).waitFor();
        await page.getByTestId('report-etiquettes').locator('svg text', { hasText: 'Artisans' }).waitFor();
        await page.getByTestId('report-tva-ca3').getByText('TVA nette due').waitFor();
        await screenshot(page, `reports-${theme}`);
        if (theme === 'light') {
          // The table view of the chart, and its CSV in the French Excel dialect.
          await turnover.getByRole('button', { name: 'Tableau' }).click();
          await turnover.getByRole('columnheader', { name: 'HT année précédente' }).waitFor();
          const [download] = await Promise.all([page.waitForEvent('download'), turnover.getByRole('button', { name: 'CSV' }).click()]);
          expect(download.suggestedFilename()).toBe('chiffre-affaires.csv');
          const csv = await (await download.createReadStream()).toArray();
          const text = Buffer.concat(csv).toString('utf8');
          expect(text.startsWith('\uFEFFPériode;Factures et avoirs;HT;TVA;TTC;HT année précédente\r\n')).toBe(true);
          expect(text).toContain(`${year}-01;1;1125;`);
          const [png] = await Promise.all([page.waitForEvent('download'), turnover.getByRole('button', { name: 'PNG' }).click()]);
          expect(png.suggestedFilename()).toBe('chiffre-affaires.png');
          // A period the other way round is said in French, nothing is asked of the server.
          await chooseOption(page, 'Période', 'Personnalisée');
          await page.getByLabel('Du', { exact: true }).fill(`${year}-06-01`);
          await page.getByLabel('Au', { exact: true }).fill(`${year}-01-01`);
          await page.getByText('La date de fin (Au) doit suivre la date de début (Du).').waitFor();
        }
        await page.goto('/');
        await page.getByTestId('kpi-expenses').waitFor();
        await screenshot(page, `dashboard-${theme}`);
      },
      { looks: WIDE_LOOKS },
    );
  });

  it('a micro-entrepreneur sees the URSSAF receipts split goods / services, the thresholds and the livre des recettes', async () => {
    const { session } = await registered(suite.server.url);
    const { vat_number: _vat, legal_form: _form, capital: _capital, ...rest } = sellerIdentity;
    await session.rest('PUT', '/api/organization', { ...rest, legal_form: 'EI', vat_regime: 'franchise' });
    const customer = (await session.rest('POST', '/api/customers', { ...businessCustomer, type: 'individual', business_id: '' })).body.data;
    const invoice = await issued(session, {
      customer_id: customer.id,
      date: today,
      items: [
        { item: 'Cours', quantity: 1, unit_price: 100, taxes: [], kind: 'service' },
        { item: 'Manuel', quantity: 1, unit_price: 200, taxes: [], kind: 'goods' },
      ],
    });
    await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: today, amount: 150, method: 'card' });
    const { context, page } = await newPage(suite.browser, suite.server.url);
    await context.addCookies([{ name: 'session', value: String(session.cookie).split('=')[1] ?? '', url: suite.server.url }]);
    await page.goto('/reports');
    const urssaf = page.getByTestId('report-urssaf');
    await urssaf.getByText('Franchise en base en').waitFor();
    await page.getByTestId('report-livre-des-recettes').getByText('Carte bancaire').waitFor();
    await screenshot(page, 'reports-franchise');
    await context.close();
  });
});
