import { describe, expect, it } from 'vitest';
import { browserSuite, forEachLook, screenshot } from '../helpers/browser';
import { issued, line, readyToInvoice } from '../helpers/documents';
import { base64, camt053 } from '../helpers/bank-statements';
import { expectNoSeriousViolations } from '../helpers/axe';

const suite = browserSuite();
const IBAN = 'FR7630001007941234567890185';
const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Paris' }).format(new Date());

describe('bank lines matched by hand', () => {
  it('splits a deposit across three invoices, assigns a card payment less its fee from the keyboard, and takes back an ignored line', async () => {
    const { session } = suite;
    const { customerId } = await readyToInvoice(session);
    // 120, 180, 240 and 120 (VAT 20 %).
    const [a, b, c, d] = [
      await issued(session, { type: 'invoice', customer_id: customerId, items: [line('Pain de campagne', 10, 10)] }),
      await issued(session, { type: 'invoice', customer_id: customerId, items: [line('Croissants', 100, 1.5)] }),
      await issued(session, { type: 'invoice', customer_id: customerId, items: [line('Brioches', 50, 4)] }),
      await issued(session, { type: 'invoice', customer_id: customerId, items: [line('Baguettes', 100, 1)] }),
    ];
    const expense = await session.rest('POST', '/api/expenses', {
      date: today,
      supplier: 'Papeterie du Centre',
      category: 'supplies',
      label: 'Ramettes',
      amount: 18.9,
      vat: [],
      payment_method: 'card',
      status: 'unpaid',
    });
    expect(expense.status).toBe(201);
    const account = (await session.rest('POST', '/api/bank-accounts', { name: 'Compte courant', iban: IBAN })).body.data;
    const statement = camt053(IBAN, [
      { date: today, amount: '500.00', label: 'REMISE CHEQUES 0004512' },
      { date: today, amount: '118.55', label: 'PAIEMENT CB 2811' },
      { date: today, amount: '-18.90', label: 'CB 2811 RAMETTES' },
    ]);
    const imported = await session.rest('POST', `/api/bank-accounts/${account.id}/import`, {
      filename: 'releve.xml',
      content_base64: base64(statement),
    });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);

    const { page } = await suite.loggedIn();
    await page.goto('/bank');
    await page.getByRole('button', { name: 'À rapprocher' }).click();
    const lines = page.getByRole('region', { name: 'Opérations' });
    const deposit = lines.getByRole('row', { name: /REMISE CHEQUES/ });
    await deposit.waitFor();

    // The deposit: three invoices, the rest followed as they are added and typed.
    await deposit.getByRole('button', { name: 'Associer…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Associer l’opération' });
    const rest = dialog.getByRole('status');
    await rest.getByText(/Reste à répartir\s:\s500,00/).waitFor();
    const found = dialog.getByRole('list', { name: 'Factures ouvertes' });
    await found.getByText(d.number).waitFor();
    await screenshot(page, 'bank-assign-search');
    await found.getByRole('button', { name: `Ajouter ${a.number} · Boulangerie Martin` }).click();
    await rest.getByText(/Reste à répartir\s:\s380,00/).waitFor();
    await found.getByRole('button', { name: `Ajouter ${b.number} · Boulangerie Martin` }).click();
    await rest.getByText(/Reste à répartir\s:\s200,00/).waitFor();
    await dialog.getByRole('button', { name: 'Enregistrer le rapprochement' }).click();
    await dialog
      .getByRole('alert')
      .getByText(/La répartition doit égaler l’opération\s:\sil reste 200,00\s€ à répartir/)
      .waitFor();
    await found.getByRole('button', { name: `Ajouter ${c.number} · Boulangerie Martin` }).click();
    // 200 of the third invoice's 240: what was left.
    await expect.poll(() => dialog.getByLabel(`Montant ${c.number} · Boulangerie Martin`).inputValue()).toBe('200,00');
    await rest.getByText(/Reste à répartir\s:\s0,00/).waitFor();
    await dialog.getByLabel(`Montant ${a.number} · Boulangerie Martin`).fill('150');
    await rest.getByText(/Dépasse l’opération de 30,00/).waitFor();
    await dialog.getByRole('button', { name: 'Enregistrer le rapprochement' }).click();
    await dialog
      .getByRole('alert')
      .getByText(/La répartition dépasse l’opération de 30,00/)
      .waitFor();
    await screenshot(page, 'bank-assign-split-over');
    await dialog.getByLabel(`Montant ${a.number} · Boulangerie Martin`).fill('120');
    await rest.getByText(/Reste à répartir\s:\s0,00/).waitFor();
    // The refusal spoke of the amounts as they were: corrected, it goes.
    await expect.poll(() => dialog.getByRole('alert').count()).toBe(0);
    await screenshot(page, 'bank-assign-split');
    await dialog.getByRole('button', { name: 'Enregistrer le rapprochement' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.getByText('Opération rapprochée : paiement enregistré').first().waitFor();
    expect((await session.rest('GET', `/api/documents/${a.id}`)).body.status).toBe('paid');
    expect((await session.rest('GET', `/api/documents/${b.id}`)).body.status).toBe('paid');
    expect((await session.rest('GET', `/api/documents/${c.id}`)).body).toMatchObject({ status: 'partial', amount_due: 40 });

    // The card payment, from the keyboard: search the invoice, Enter adds it, the fee typed, Enter records.
    const card = lines.getByRole('row', { name: /PAIEMENT CB 2811/ });
    await card.getByRole('button', { name: 'Associer…' }).click();
    await dialog.getByLabel('Rechercher une facture ouverte').waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('placeholder'))).toBe('Numéro ou client');
    await page.keyboard.type(d.number);
    await dialog.getByRole('list', { name: 'Factures ouvertes' }).getByText(d.number).waitFor();
    await expect.poll(() => dialog.getByRole('list', { name: 'Factures ouvertes' }).getByRole('listitem').count()).toBe(1);
    await page.keyboard.press('Enter');
    // Offered for what the line holds; the invoice is paid whole, the processor kept the difference.
    await rest.getByText(/Reste à répartir\s:\s0,00/).waitFor();
    await dialog.getByLabel(`Montant ${d.number} · Boulangerie Martin`).fill('120');
    await rest.getByText(/Dépasse l’opération de 1,45/).waitFor();
    await dialog.getByLabel(`Frais retenus ${d.number} · Boulangerie Martin`).fill('1,45');
    await rest.getByText(/Reste à répartir\s:\s0,00/).waitFor();
    await screenshot(page, 'bank-assign-fee');
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'hidden' });
    expect((await session.rest('GET', `/api/documents/${d.id}`)).body.status).toBe('paid');
    const payments = (await session.rest('GET', `/api/documents/${d.id}/payments`)).body.data;
    expect(payments).toEqual([expect.objectContaining({ amount: 120, fee: 1.45 })]);

    await page.getByText('Aucune opération « À rapprocher ».').waitFor();

    // Ignored by mistake, taken back (among the suggestions again: the expense of that amount is still unpaid).
    await page.getByRole('button', { name: 'Suggestions', exact: true }).click();
    const debit = lines.getByRole('row', { name: /CB 2811 RAMETTES/ });
    await debit.getByRole('button', { name: 'Ignorer…' }).click();
    await debit.getByLabel('Raison').fill('Achat personnel');
    await debit.getByRole('button', { name: 'Ignorer la ligne' }).click();
    await page.getByText('Aucune suggestion en attente.').waitFor();
    await page.getByRole('button', { name: 'Ignorées' }).click();
    await lines.getByText('Ignorée : Achat personnel').waitFor();
    await lines.getByRole('button', { name: 'Reprendre l’opération CB 2811 RAMETTES' }).click();
    await page.getByText('Opération de nouveau à rapprocher').first().waitFor();
    await page.getByRole('button', { name: 'Rapprochées' }).click();
    await lines.getByText(/\+ frais 1,45/).waitFor();
    await screenshot(page, 'bank-matched-with-fee');

    // The debit's dialog in every look: the expense it pays, found by its supplier.
    await forEachLook(suite, async (view, look) => {
      await view.goto('/bank');
      await view.getByRole('button', { name: 'Suggestions', exact: true }).click();
      const row = view.getByRole('region', { name: 'Opérations' }).getByRole('row', { name: /CB 2811 RAMETTES/ });
      await row.getByRole('button', { name: 'Associer…' }).click();
      const box = view.getByRole('dialog', { name: 'Associer l’opération' });
      await box.getByLabel('Rechercher une dépense à payer').fill('papeterie');
      await box.getByRole('button', { name: 'Ajouter Papeterie du Centre' }).click();
      await box
        .getByRole('status')
        .getByText(/Reste à répartir\s:\s0,00/)
        .waitFor();
      await screenshot(view, `bank-assign-${look.name}`);
      await expectNoSeriousViolations(view, `bank-assign-${look.name}`);
    });
  }, 240_000);
});
