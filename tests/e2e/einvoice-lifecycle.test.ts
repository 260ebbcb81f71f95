import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { screenshot, browserSuite } from '../helpers/browser';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { fakePaSettings, startFakePa } from '../helpers/fake-pa';
import { serveFlows } from '../helpers/fake-pa-flows';
import { FLOW_REASONS } from '../../src/shared/einvoice-flows';

const suite = browserSuite();

/** Each entry of the history as its parts (date, status, source, reason), read cell by cell. */
const entries = async (card: Locator) =>
  Promise.all((await card.locator('li').all()).map(async (li) => (await li.locator('span').allInnerTexts()).join(' | ')));

describe('the lifecycle of an issued invoice in its Aperçu', () => {
  it('lists Déposée and the automatic Encaissée with their dates; a refusal is declared with its reason', async () => {
    const { customerId } = await readyToInvoice(suite.session);
    const paid = await issued(suite.session, { customer_id: customerId, items: [line('Accompagnement', 1, 1000)] });
    const deposited = await suite.session.rest('POST', `/api/documents/${paid.id}/lifecycle`, { status: 'deposited', date: '2026-11-02' });
    expect(deposited.status).toBe(201);
    expect((await suite.session.rest('POST', `/api/documents/${paid.id}/payments`, { date: '2026-11-12', amount: 1200 })).status).toBe(201);

    const { page } = await suite.loggedIn({ width: 1400, height: 1000 });
    await page.goto(`/invoices/${paid.id}/view`);
    const card = page.getByTestId('lifecycle-card');
    await card.getByText('Encaissée').waitFor();
    await card.getByRole('heading', { name: 'Cycle de vie (facture électronique)' }).waitFor();
    expect(await entries(card)).toEqual(['02/11/2026 | Déposée | Saisie manuelle', '12/11/2026 | Encaissée | Automatique']);
    expect(await page.locator('[data-document-pages] [data-testid="lifecycle-card"]').count()).toBe(0);
    // Deposited and cashed: neither a second deposit nor a refusal is offered.
    expect(await card.getByRole('button').count()).toBe(0);
    await screenshot(page, 'lifecycle-cashed');

    const open = await issued(suite.session, { customer_id: customerId, items: [line('Audit', 1, 500)] });
    await page.goto(`/invoices/${open.id}/view`);
    await card.getByText('Aucun statut pour l’instant.').waitFor();
    await card.getByRole('button', { name: 'Déclarer un refus du client' }).click();
    await card.getByLabel('Motif du refus').fill('Prestation non conforme au devis');
    await card.getByRole('button', { name: 'Enregistrer le refus' }).click();
    await card.getByText('Motif : Prestation non conforme au devis').waitFor();
    expect(await entries(card)).toEqual([
      expect.stringMatching(/^\d{2}\/\d{2}\/\d{4} \| Refusée \| Saisie manuelle \| Motif\s:\sPrestation non conforme au devis$/),
    ]);
    // A refused invoice is closed: nothing more is offered.
    expect(await card.getByRole('button').count()).toBe(0);
    await screenshot(page, 'lifecycle-refused');

    // Through the platform's API: a refusal shows its reason in French beside its code, and « Renvoyer » sends it again.
    const pa = await startFakePa();
    try {
      const flows = serveFlows(pa);
      const settings = fakePaSettings(pa);
      expect((await suite.session.rest('PUT', '/api/settings/einvoicing', settings)).status).toBe(200);
      flows.refusals.push({ status: 422, body: { errorCode: 'InvalidSchema', errorMessage: 'Invalid XML' } });
      const sent = await issued(suite.session, { customer_id: customerId, items: [line('Audit', 1, 500)] });
      await suite.server.app.flows.runDue();
      await page.goto(`/invoices/${sent.id}/view`);
      const transmission = card.getByTestId('transmission');
      await transmission.getByText('Refusée par la plateforme').waitFor();
      await transmission.getByText(FLOW_REASONS.InvalidSchema).waitFor();
      await transmission.getByText('code InvalidSchema').waitFor();
      await transmission.scrollIntoViewIfNeeded();
      await screenshot(page, 'lifecycle-transmission-refused');
      await transmission.getByRole('button', { name: 'Renvoyer' }).click();
      await transmission.getByText('Transmise, en attente de l’accusé de réception').waitFor();
      expect(await transmission.getByRole('button').count()).toBe(0);
      expect(pa.violations).toEqual([]);
    } finally {
      await pa.close();
    }
    await page.context().close();
  });
});
