import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server';
import { launchBrowser, newPage, screenshot } from '../helpers/browser';
import { expectNoSeriousViolations } from '../helpers/axe';
import { registered } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { fakePaSettings, startFakePa, type FakePa } from '../helpers/fake-pa';
import { type FakeFlowService, serveFlows } from '../helpers/fake-pa-flows';
import { buildEinvoiceXml } from '../../src/server/services/einvoice-xml';
import { defined } from '../../src/shared/defined';

let server: TestServer;
let browser: Browser;
let pa: FakePa;
let flows: FakeFlowService;

beforeAll(async () => {
  [server, browser, pa] = await Promise.all([startTestServer(), launchBrowser(), startFakePa()]);
  flows = serveFlows(pa);
});
afterAll(async () => {
  expect(pa?.violations).toEqual([]);
  await browser?.close();
  await Promise.all([server?.close(), pa?.close()]);
});

describe('Dépenses → Reçu de la plateforme agréée', () => {
  it('« Synchroniser » brings a supplier invoice and shows an unreadable flow; the invoice is refused with a reason', async () => {
    // A French supplier (another organisation) whose CII the platform delivers.
    const supplier = await registered(server.url);
    const { customerId } = await readyToInvoice(supplier.session);
    const sold = await issued(supplier.session, { customer_id: customerId, items: [line('Maintenance', 1, 300)] });
    const db = server.app.connection.db;
    const { organization_id: supplierOrg } = await db
      .selectFrom('documents')
      .select('organization_id')
      .where('id', '=', sold.id)
      .executeTakeFirstOrThrow();
    flows.receive({ flowType: 'SupplierInvoice', data: Buffer.from('<html>Bonjour</html>'), name: 'bonjour.xml' });
    flows.receive({
      flowType: 'SupplierInvoice',
      data: Buffer.from(await buildEinvoiceXml(db, supplierOrg, sold.id, 'cii')),
      name: `${sold.number}.xml`,
    });

    const { session } = await registered(server.url);
    await readyToInvoice(session);
    expect((await session.rest('PUT', '/api/settings/einvoicing', fakePaSettings(pa))).status).toBe(200);
    const { context, page } = await newPage(browser, server.url);
    await context.addCookies([{ name: 'session', value: defined(defined(session.cookie).split('=')[1]), url: server.url }]);
    await page.goto('/expenses');
    const inbox = page.getByRole('region', { name: 'Reçu de la plateforme agréée' });
    await inbox.getByText('Pas encore synchronisé').waitFor();
    await inbox.getByRole('button', { name: 'Synchroniser' }).click();
    await page.getByTestId('snackbar').getByText('1 facture fournisseur reçue, 0 statut enregistré, 1 flux à examiner').waitFor();
    const received = inbox.getByRole('list', { name: 'Flux reçus' });
    await received.getByText('Illisible').waitFor();
    await received.getByText('Ce XML n’est pas une facture électronique : élément racine html').waitFor();
    await received.getByText('Dépense créée').waitFor();
    await page.getByTestId('expenses-list').getByText(`Facture ${sold.number}`).first().waitFor();
    await expectNoSeriousViolations(page, 'expenses with the platform inbox');
    await screenshot(page, 'expenses-platform-inbox');

    await received.getByRole('button', { name: 'Voir la dépense' }).click();
    const status = page.getByTestId('supplier-status');
    await status.getByText('Aucun statut transmis au fournisseur pour l’instant.').waitFor();
    await status.getByRole('button', { name: 'Refuser' }).click();
    const confirm = page.getByRole('alertdialog', { name: `Refuser la facture ${sold.number} ?` });
    await confirm.getByText('Ce choix est définitif : il devra émettre un avoir.', { exact: false }).waitFor();
    const send = confirm.getByRole('button', { name: 'Refuser' });
    expect(await send.isDisabled()).toBe(true);
    await confirm.getByRole('combobox', { name: 'Motif' }).click();
    await page.getByRole('option', { name: 'Numéro de commande erroné ou absent' }).click();
    await expectNoSeriousViolations(page, 'refusal confirmation');
    await screenshot(page, 'expense-refusal-confirmation');
    await send.click();
    // The first message of the process loads the CDAR schema and rules before it leaves.
    await page
      .getByTestId('snackbar')
      .getByText('Statut « Refusée » transmis à la plateforme agréée')
      .waitFor({ timeout: 45_000 })
      .catch(async (error) => {
        await screenshot(page, 'expense-refusal-failed');
        throw error;
      });
    await status.getByRole('list', { name: 'Statuts transmis au fournisseur' }).getByText('Refusée').waitFor();
    await status.getByText('— Numéro de commande erroné ou absent').waitFor();
    // Refused is final: no decision is left to take.
    expect(await status.getByRole('button').count()).toBe(0);
    expect(flows.flows.filter((f) => f.flowSyntax === 'CDAR')).toHaveLength(1);
  });
});
