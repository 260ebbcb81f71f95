import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server';
import { cspViolations, newPage, screenshot, workerBrowser } from '../helpers/browser';
import { expectNoSeriousViolations } from '../helpers/axe';
import { newUser, Session } from '../helpers/clients';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { deliverStripeEvent, organizationIdOf, startStripeStub, type StripeStub } from '../helpers/stripe';
import { defined } from '../../src/shared/defined';

/**
 * Paramètres → Paiement en ligne and « Payer par carte » on an invoice's public page, in Chromium, with a local stub
 * standing for Stripe's API. Stripe's own payment page is not reachable here: the browser's visit to it is answered
 * by the test, and Stripe's confirmation is a signed event sent to the server.
 */
let server: TestServer;
let browser: Browser;
let stub: StripeStub;
let session: Session;

const KEYS = {
  publishable_key: 'pk_test_51AtelierFontaine',
  secret_key: 'sk_test_51AtelierFontaineSecret',
  webhook_secret: 'whsec_AtelierFontaineSigning',
};

beforeAll(async () => {
  cspViolations.length = 0;
  stub = await startStripeStub();
  [server, browser] = await Promise.all([startTestServer({ env: { STRIPE_API_BASE: stub.url } }), workerBrowser()]);
  session = new Session(server.url);
  await session.rest('POST', '/api/auth/register', newUser({ organization: 'Atelier Fontaine' }));
});
afterAll(async () => {
  await Promise.all(browser?.contexts().map((context) => context.close()) ?? []);
  await server?.close();
  await stub?.close();
  expect(cspViolations).toEqual([]);
});

async function loggedIn() {
  const { context, page } = await newPage(browser, server.url);
  await context.addCookies([{ name: 'session', value: defined(defined(session.cookie).split('=')[1]), url: server.url }]);
  return page;
}

describe('card payment with the organisation’s own Stripe account', () => {
  it('Paramètres → Paiement en ligne: keys saved, secrets shown as « Clé enregistrée », the webhook address, « Tester »', async () => {
    const page = await loggedIn();
    await page.goto('/settings/online-payment');
    await page.getByRole('link', { name: 'Paiement en ligne' }).waitFor();
    await page.getByText('Inactif : enregistrez les trois clés ci-dessous pour proposer le paiement par carte').waitFor();
    const organizationId = await organizationIdOf(session);
    expect(await page.getByTestId('online-payment-webhook-url').textContent()).toMatch(
      new RegExp(`^https?://[^/]+/api/stripe/webhook/${organizationId}$`),
    );

    // A key Stripe refuses is said beside its field, in French, and nothing is kept.
    stub.refusedKeys.add('sk_test_51CleRevoquee000');
    await page.getByLabel('Clé publiable').fill(KEYS.publishable_key);
    await page.getByLabel('Clé secrète').fill('sk_test_51CleRevoquee000');
    await page.getByLabel('Secret de signature du webhook').fill(KEYS.webhook_secret);
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('Stripe refuse la clé secrète : elle est inconnue, révoquée ou mal copiée', { exact: false }).first().waitFor();

    await page.getByLabel('Clé secrète').fill(KEYS.secret_key);
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByTestId('snackbar').getByText('Mise à jour avec succès').waitFor();
    await page.reload();
    await page.getByText('Actif — mode test : aucune carte réelle n’est débitée').waitFor();
    expect(await page.getByText('Clé enregistrée', { exact: true }).count()).toBe(2);
    const html = await page.content();
    expect(html).not.toContain(KEYS.secret_key);
    expect(html).not.toContain(KEYS.webhook_secret);

    await page.getByRole('button', { name: 'Tester' }).click();
    await page.getByRole('status').getByText('Connexion à Stripe réussie : compte « Atelier Fontaine »').waitFor();
    await expectNoSeriousViolations(page, 'online payment settings');
    await screenshot(page, 'settings-online-payment');

    // Removing asks first; « Annuler » keeps the keys.
    await page.getByRole('button', { name: 'Supprimer les clés' }).click();
    const dialog = page.getByRole('alertdialog');
    await dialog.getByText('Supprimer les clés Stripe ?', { exact: false }).waitFor();
    await screenshot(page, 'settings-online-payment-remove');
    await dialog.getByRole('button', { name: 'Annuler' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await session.rest('GET', '/api/settings/online-payment')).body.enabled).toBe(true);
  });

  it('the share page offers « Payer par carte », goes to Stripe, and shows the invoice paid once Stripe confirms', async () => {
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Conseil en organisation', 3, 150, 20, { unit: 'h' })] });
    const { page } = await newPage(browser, server.url);
    // Stripe's payment page, as far as this browser can see it.
    let visited = '';
    await page.route('https://checkout.stripe.com/**', (route) => {
      visited = route.request().url();
      return route.fulfill({ contentType: 'text/html', body: '<title>Stripe Checkout</title><p>Page de paiement Stripe</p>' });
    });
    await page.goto(`/share/${invoice.uuid}`);
    const card = page.getByTestId('card-payment');
    await card.getByText(/Reste à payer\s:\s540,00/).waitFor();
    await expectNoSeriousViolations(page, 'share page with card payment');
    await screenshot(page, 'share-card-payment');

    await card.getByRole('button', { name: 'Payer par carte' }).click();
    await page.waitForURL(/checkout\.stripe\.com/);
    expect(visited).toMatch(/^https:\/\/checkout\.stripe\.com\/c\/pay\/cs_pay_\d+$/);
    const sessionId = visited.split('/').pop() ?? '';

    // Back from Stripe before its confirmation: thanked, and told the invoice will show paid.
    await page.goto(`/share/${invoice.uuid}?paiement=recu`);
    await page.getByRole('status').getByText('Paiement reçu, merci').waitFor();
    await page.getByText('La facture sera marquée payée dès que Stripe aura confirmé le paiement.').waitFor();
    const organizationId = await organizationIdOf(session);
    const delivered = await deliverStripeEvent(
      server,
      'evt_e2e_paid',
      'checkout.session.completed',
      { id: sessionId, object: 'checkout.session', payment_status: 'paid', amount_total: 54000, currency: 'eur', payment_intent: 'pi_e2e' },
      { secret: KEYS.webhook_secret, path: `/api/stripe/webhook/${organizationId}` },
    );
    expect(delivered.body.outcome).toBe('recorded');
    // The page looks again on its own until the payment shows.
    await page.getByText('La facture est réglée.').waitFor({ timeout: 15_000 });
    await page.getByTestId('balance-card').getByText(/^0,00/).waitFor();
    await screenshot(page, 'share-card-paid');

    // Paid: no button any more.
    await page.goto(`/share/${invoice.uuid}`);
    await page.getByTestId('balance-card').waitFor();
    expect(await page.getByRole('button', { name: 'Payer par carte' }).count()).toBe(0);
  });

  it('back from a cancelled payment: « Paiement annulé », and the button is there to try again', async () => {
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Atelier', 1, 200)] });
    const { page } = await newPage(browser, server.url, { width: 390, height: 844 });
    await page.goto(`/share/${invoice.uuid}?paiement=annule`);
    const card = page.getByTestId('card-payment');
    await card.getByText('Paiement annulé').waitFor();
    await card.getByRole('button', { name: 'Payer par carte' }).waitFor();
    await screenshot(page, 'share-card-cancelled-phone', { fullPage: false });
  });
});
