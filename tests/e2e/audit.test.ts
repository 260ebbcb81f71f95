import SQLite from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { dialogLayerReady, newPage, screenshot, browserSuite } from '../helpers/browser';
import { registered } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { defined } from '../../src/shared/defined';
import * as backfill from '../../src/server/db/migrations/0017_audit_backfill';

const suite = browserSuite();

describe('Paramètres → Journal, and a payment cancelled by a counter-entry', () => {
  it('cancels a payment by a counter-entry, lists the log and verifies it, then names the entry altered in the file', async () => {
    const { customerId } = await readyToInvoice(suite.session);
    const invoice = await issued(suite.session, { customer_id: customerId, items: [line('Audit', 1, 1000)] });
    const payment = await suite.session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-10', amount: 300 });
    expect(payment.status).toBe(201);

    const { context, page } = await suite.loggedIn();
    await page.goto(`/invoices/${invoice.id}/payments`);
    await page.getByRole('button', { name: 'Annuler', exact: true }).click();
    await dialogLayerReady(page);
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Annuler ce paiement par une contre-écriture ? Il restera dans la liste, annulé.').waitFor();
    await dialog.getByRole('button', { name: 'Annuler le paiement' }).click();
    await page.getByTestId('snackbar').getByText('Paiement annulé par une contre-écriture').waitFor();
    await page.getByText('Contre-écriture', { exact: true }).waitFor();
    await page.getByText('Annulé', { exact: true }).waitFor();
    expect(await page.getByTestId('amount-due').textContent()).toBe('1200,00\u00a0€');
    await screenshot(page, 'payments-reversed');

    await page.goto('/settings');
    await page.getByRole('link', { name: 'Journal' }).click();
    await page.waitForURL('**/settings/audit');
    await page.getByRole('heading', { level: 1, name: 'Journal' }).waitFor();
    const rows = page.locator('tbody tr');
    await rows.first().waitFor();
    expect(await rows.count()).toBe(3);
    expect(await rows.nth(0).innerText()).toMatch(
      /3\s+\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}\s+Annulation de paiement\s+Facture F2026-0001\s+−300,00\s€\s+Camille Durand/,
    );
    expect(await rows.nth(1).innerText()).toMatch(/Paiement\s+Facture F2026-0001\s+300,00\s€/);
    expect(await rows.nth(2).innerText()).toMatch(/Émission\s+Facture F2026-0001\s+1200,00\s€/);
    await page.getByRole('button', { name: 'Vérifier l’intégrité' }).click();
    expect(await page.getByTestId('audit-verification').textContent()).toBe('Journal intègre\u00a0: 3 entrées vérifiées');
    await screenshot(page, 'settings-audit');

    // Someone with the database file lowers the issued invoice's total: verify names its issue entry.
    const handle = new SQLite(suite.server.dbPath);
    handle.prepare('UPDATE documents SET total = 10000 WHERE id = ?').run(invoice.id);
    handle.close();
    await page.getByRole('button', { name: 'Vérifier l’intégrité' }).click();
    await page.getByText('Journal altéré à partir de l’entrée n° 1').waitFor();
    await screenshot(page, 'settings-audit-altered');
    await context.close();
  });

  it('lists the archive of a PDF, and marks as such the entries written afterwards for a document issued before the log', async () => {
    const { session } = await registered(suite.server.url); // an organisation, and a log, of its own
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Audit', 1, 1000)] });
    // Its PDF is kept at its first download here (the test server does not print at issue).
    expect((await fetch(`${suite.server.url}/documents/download/${invoice.uuid}`)).status).toBe(200);
    const { context, page } = await newPage(suite.browser, suite.server.url);
    await context.addCookies([{ name: 'session', value: defined(defined(session.cookie, 'cookie').split('=')[1]), url: suite.server.url }]);
    await page.goto('/settings/audit');
    const rows = page.locator('tbody tr');
    await rows.nth(1).waitFor();
    expect(await rows.nth(0).innerText()).toMatch(/2\s+.*Archivage du PDF\s+Facture F2026-0001\s+1200,00\s€\s+—/);
    await page.getByRole('button', { name: 'Vérifier l’intégrité' }).click();
    expect(await page.getByTestId('audit-verification').textContent()).toBe('Journal intègre\u00a0: 2 entrées vérifiées');

    // A copy of it as a document issued before the log existed, then the migration that logged such documents. It
    // writes with the writer it had (plain SHA-256 links, sealed by migration 0055 on a real upgrade): run here on a
    // keyed log, its entry shows as a reprise, and the chain's verification in the migrations' real order is
    // audit-backfill's (integration).
    const handle = new SQLite(suite.server.dbPath);
    try {
      const columns = (handle.prepare('PRAGMA table_info(documents)').all() as { name: string }[])
        .map((c) => c.name)
        .filter((name) => !['id', 'uuid', 'number', 'pdf_path', 'pdf_sha256', 'pdf_size'].includes(name));
      handle
        .prepare(
          `INSERT INTO documents (uuid, number, ${columns.join(', ')}) SELECT '00000000-0000-4000-8000-0000000000aa', 'ANC-0001', ${columns.join(', ')} FROM documents WHERE id = ?`,
        )
        .run(invoice.id);
    } finally {
      handle.close();
    }
    await backfill.up(suite.server.app.connection.db as never);

    await page.reload();
    await rows.nth(2).waitFor();
    expect(await rows.count()).toBe(3);
    expect(await rows.nth(0).innerText()).toMatch(/3\s+.*Émission \(reprise\)\s+Facture ANC-0001\s+1200,00\s€\s+—/);
    expect(await rows.nth(1).innerText()).toMatch(/2\s+.*Archivage du PDF\s+Facture F2026-0001\s+1200,00\s€\s+—/);
    expect(await rows.nth(2).innerText()).toMatch(/1\s+.*Émission\s+Facture F2026-0001/);
    await screenshot(page, 'settings-audit-archive');
    await context.close();
  });
});
