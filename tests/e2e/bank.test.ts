import { describe, expect, it } from 'vitest';
import { browserSuite, screenshot } from '../helpers/browser';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { camt053 } from '../helpers/bank-statements';
import { expectNoSeriousViolations } from '../helpers/axe';

const suite = browserSuite();
const IBAN = 'FR7630001007941234567890185';

describe('bank accounts and reconciliation', () => {
  it('adds an account (a wrong IBAN said by its field), imports a camt.053, and confirms the sure suggestions', async () => {
    const { session } = suite;
    const { customerId } = await readyToInvoice(session);
    const first = await issued(session, { type: 'invoice', customer_id: customerId, items: [line('Pain de campagne', 10, 12)] });
    const second = await issued(session, { type: 'invoice', customer_id: customerId, items: [line('Croissants', 40, 1.5)] });
    const { page } = await suite.loggedIn();

    await page.goto('/settings/bank');
    await page.getByText('Aucun compte bancaire pour l’instant.').waitFor();
    const form = page.getByRole('form', { name: 'Ajouter un compte bancaire' });
    await form.getByLabel('Nom du compte').fill('Compte courant');
    await form.getByLabel('IBAN').fill('FR76 3000 1007 9412 3456 7890 186');
    await form.getByRole('button', { name: 'Ajouter le compte' }).click();
    await form.getByText('IBAN invalide : la clé de contrôle ne correspond pas').waitFor();
    await form.getByLabel('IBAN').fill('FR76 3000 1007 9412 3456 7890 185');
    await form.getByLabel('BIC').fill('BDFEFRPP');
    await form.getByRole('button', { name: 'Ajouter le compte' }).click();
    await page.getByRole('row', { name: /Compte courant.*Par défaut.*FR76 3000 1007 9412 3456 7890 185/ }).waitFor();
    await screenshot(page, 'bank-accounts');

    await page.getByRole('link', { name: 'Importer un relevé' }).click();
    await page.getByText('aucun relevé importé').waitFor();
    const xml = camt053(
      IBAN,
      [
        { date: '2026-11-10', amount: first.total.toFixed(2), label: `VIR SEPA BOULANGERIE MARTIN FACTURE ${first.number}` },
        { date: '2026-11-12', amount: second.total.toFixed(2), label: 'VIREMENT BOULANGERIE MARTIN', counterparty: 'BOULANGERIE MARTIN' },
        { date: '2026-11-13', amount: '-18.90', label: 'CB PAPETERIE DU CENTRE' },
      ],
      '001.02',
      { opening: '2500.00', openingDate: '2026-11-01' },
    );
    await page
      .getByLabel('Importer un relevé')
      .setInputFiles({ name: 'releve-novembre.xml', mimeType: 'application/xml', buffer: Buffer.from(xml) });
    // The first statement starts a worker thread: seconds, once.
    await page
      .getByRole('status')
      .getByText(/3 opérations importées — 2 avec une suggestion, dont 2 sûres/)
      .waitFor({ timeout: 30_000 });
    await page.getByText(`Numéro ${first.number} dans le libellé, montant exact`).waitFor();
    await page.getByText('Montant exact et nom du client').waitFor();
    await screenshot(page, 'bank-suggestions');

    await page.getByRole('button', { name: 'Tout valider (suggestions sûres)' }).click();
    await page.getByText('2 opérations rapprochées').first().waitFor();
    await page.getByText('Aucune suggestion en attente.').waitFor();
    await page.getByRole('button', { name: 'Rapprochées' }).click();
    await page.getByText(`Facture ${first.number}`).first().waitFor();
    expect((await session.rest('GET', `/api/documents/${second.id}`)).body.status).toBe('paid');

    await page.getByRole('button', { name: 'À rapprocher' }).click();
    await page.getByRole('region', { name: 'Opérations' }).getByText('CB PAPETERIE DU CENTRE').waitFor();
    await page.getByRole('button', { name: 'Ignorer…' }).click();
    await page.getByLabel('Raison').fill('Achat personnel');
    await page.getByRole('button', { name: 'Ignorer la ligne' }).click();
    await page.getByText('Aucune opération « À rapprocher ».').waitFor();

    // The état de rapprochement: the bank's balance against the books', the ignored line explaining the difference.
    const reconciliation = page.getByRole('region', { name: 'Rapprochement' });
    await reconciliation.getByRole('heading', { name: 'Rapprochement au 13/11/2026' }).waitFor();
    await reconciliation.getByText('Opérations du relevé absentes de vos comptes').waitFor();
    await reconciliation.getByText('Ignorée : Achat personnel').waitFor();
    await reconciliation.scrollIntoViewIfNeeded();
    await screenshot(page, 'bank-reconciliation');
    await expectNoSeriousViolations(page, 'bank-page');
  }, 180_000);
});
