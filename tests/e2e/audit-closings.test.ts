import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { browserSuite, screenshot } from '../helpers/browser';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { closeAuditPeriods } from '../../src/server/services/audit-closings';
import { signatureValid } from '../../src/server/services/audit-key';

const suite = browserSuite();

describe('Paramètres → Journal → Clôtures', () => {
  it('lists the signed closing of the day with its perpetual totals and exports it as a signed file', async () => {
    const { customerId } = await readyToInvoice(suite.session);
    const invoice = await issued(suite.session, { customer_id: customerId, items: [line('Audit', 1, 1000)] });
    expect((await suite.session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-10', amount: 300 })).status).toBe(
      201,
    );

    const { context, page } = await suite.loggedIn();
    await page.goto('/settings/audit');
    await page.getByText('Aucune clôture pour l’instant : la première est faite la nuit qui suit la première entrée.').waitFor();

    // The nightly job, as it runs after midnight: today is then the day that ended.
    await closeAuditPeriods(suite.server.app.connection.db, new Date(Date.now() + 86_400_000));
    await page.reload();
    const table = page.getByRole('table', { name: 'Clôtures du journal' });
    // The day's closing; on the last night of a month (in Paris) the month's is listed above it.
    const row = table.locator('tbody tr').filter({ hasText: 'Jour' });
    await row.waitFor();
    expect(await row.innerText()).toMatch(/^1\s+Jour\s+\d{2}\/\d{2}\/\d{4}\s+2\s+1200,00\s€\s+300,00\s€\s+Exporter$/);
    await screenshot(page, 'settings-audit-closings');

    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: 'Exporter' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^cloture-1-\d{4}-\d{2}-\d{2}\.json$/);
    const file = JSON.parse(fs.readFileSync(await download.path(), 'utf8'));
    expect(file.closing).toMatchObject({ number: 1, period: 'day', last_sequence: 2 });
    expect(signatureValid(file.public_key, JSON.stringify(file.closing), file.signature)).toBe(true);

    await page.getByRole('button', { name: 'Vérifier l’intégrité' }).click();
    expect(await page.getByTestId('audit-verification').textContent()).toBe('Journal intègre\u00a0: 2 entrées vérifiées');
    await context.close();
  });
});
