import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers/caller';
import { inProcess, line, sellerIdentity } from '../helpers/documents';
import { paymentAccount } from '../../src/server/services/payment-account';
import { qrImage } from '../../src/server/services/transfer-qr';

// The public page's transfer QR code is service logic: called in process (createCaller, real SQLite). The browser test
// (tests/e2e/transfer-qr.test.ts) decodes the code drawn on the page and in the PDF.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const IBAN = { key: 'IBAN', value: 'FR76 3000 6000 0112 3456 7890 189' };
const BIC = { key: 'BIC', value: 'bnpa frpp' };

async function sellerWith(additional_info: { key: string; value: string }[], identifications: { key: string; value: string }[] = []) {
  const { caller, organizationId } = await app.signUp();
  const { customerId } = await inProcess.readyToInvoice(caller);
  await caller.organization.update({ ...sellerIdentity, additional_info, identifications });
  return { caller, organizationId, customerId };
}

const transferOf = async (uuid: string) => (await app.anonymous().share.get({ uuid })).transfer;
const qrOf = async (uuid: string) => (await transferOf(uuid))?.qr ?? null;
const epc = (amount: string, reference: string) =>
  `BCD\n002\n1\nSCT\nBNPAFRPP\nAtelier Fontaine\nFR7630006000011234567890189\nEUR${amount}\n\n${reference}`;

describe('the EPC069-12 code of an issued invoice', () => {
  it('asks for what is left to pay, with the invoice’s RF reference, and for nothing once it is paid', async () => {
    const { caller, customerId } = await sellerWith([IBAN, BIC]);
    const invoice = await inProcess.issued(caller, { customer_id: customerId, items: [line('Conseil', 3, 150)] });
    expect(invoice.number).toBe('F2026-0001');
    expect(await transferOf(invoice.uuid)).toEqual({
      qr: await qrImage(epc('540.00', 'RF12F20260001')),
      holder: 'Atelier Fontaine',
      iban: 'FR7630006000011234567890189',
      bic: 'BNPAFRPP',
      amount: '540.00',
      reference: 'RF12F20260001',
    });

    await caller.documents.recordPayment({ id: invoice.id, data: { date: '2026-11-10', amount: 140 } });
    expect(await qrOf(invoice.uuid)).toBe(await qrImage(epc('400.00', 'RF12F20260001')));
    await caller.documents.recordPayment({ id: invoice.id, data: { date: '2026-11-12', amount: 400 } });
    expect(await qrOf(invoice.uuid)).toBeNull();
  });

  it('is drawn for a deposit invoice too, with its own reference', async () => {
    const { caller, customerId } = await sellerWith([IBAN, BIC]);
    const quote = await inProcess.issued(caller, { type: 'estimate', customer_id: customerId, items: [line('Cuisine', 1, 5000)] });
    expect(await qrOf(quote.uuid)).toBeNull();
    const deposit = await caller.documents.deposit({ id: quote.id, amount: 1800 });
    await caller.documents.issue({ id: deposit.data.id });
    const issued = await caller.documents.get({ id: deposit.data.id });
    expect(issued).toMatchObject({ kind: 'deposit', number: 'F2026-0001', amount_due: 1800 });
    expect(await qrOf(issued.uuid)).toBe(await qrImage(epc('1800.00', 'RF12F20260001')));
  });

  it('is not drawn for another currency than the euro, without an IBAN, or with an IBAN that fails its check', async () => {
    const euro = await sellerWith([IBAN, BIC]);
    await euro.caller.currencies.create({ code: 'USD', rate: '1.08' });
    const dollars = await inProcess.issued(euro.caller, { customer_id: euro.customerId, currency: 'USD', items: [line('Audit', 1, 900)] });
    expect(await qrOf(dollars.uuid)).toBeNull();

    const none = await sellerWith([{ key: 'Bon à savoir', value: 'Paiement à réception' }]);
    const unpayable = await inProcess.issued(none.caller, { customer_id: none.customerId, items: [line('Audit', 1, 900)] });
    expect(await qrOf(unpayable.uuid)).toBeNull();

    const typo = await sellerWith([{ key: 'IBAN', value: 'FR76 3000 6000 0112 3456 7890 198' }, BIC]);
    const wrong = await inProcess.issued(typo.caller, { customer_id: typo.customerId, items: [line('Audit', 1, 900)] });
    expect(await qrOf(wrong.uuid)).toBeNull();
  });
});

describe('paymentAccount: the one reader of the account an organisation is paid on', () => {
  const read = (organizationId: number) => paymentAccount(app.deps.db, organizationId);

  it('reads the IBAN and BIC the payment block prints, in their electronic form, made out to the organisation', async () => {
    const { organizationId } = await sellerWith([BIC], [IBAN]);
    expect(await read(organizationId)).toEqual({ holder: 'Atelier Fontaine', iban: 'FR7630006000011234567890189', bic: 'BNPAFRPP' });
  });

  it('names the holder given as « Titulaire », and answers null when there is no IBAN', async () => {
    const holder = await sellerWith([IBAN, { key: 'Titulaire du compte', value: ' Jeanne Fontaine EI ' }]);
    expect(await read(holder.organizationId)).toEqual({
      holder: 'Jeanne Fontaine EI',
      iban: 'FR7630006000011234567890189',
      bic: '',
    });
    const none = await sellerWith([{ key: 'IBAN', value: '  ' }, BIC]);
    expect(await read(none.organizationId)).toBeNull();
  });

  it('takes the default bank account over the typed key/values, and the QR asks to be paid on it', async () => {
    const { caller, organizationId, customerId } = await sellerWith([IBAN, BIC]);
    await caller.bankAccounts.create({
      name: 'Compte courant',
      iban: 'FR14 2004 1010 0505 0001 3M02 606',
      bic: 'psstfrppxxx',
      default: true,
    });
    expect(await read(organizationId)).toEqual({ holder: 'Atelier Fontaine', iban: 'FR1420041010050500013M02606', bic: 'PSSTFRPPXXX' });
    const invoice = await inProcess.issued(caller, { customer_id: customerId, items: [line('Conseil', 1, 100)] });
    expect(await transferOf(invoice.uuid)).toMatchObject({ iban: 'FR1420041010050500013M02606', bic: 'PSSTFRPPXXX', amount: '120.00' });
  });
});

describe('the account an invoice is paid on, frozen at issue', () => {
  it('prints, codes and writes as payment means the default bank account it was issued with, whatever changes later', async () => {
    const { caller, customerId } = await sellerWith([]);
    const first = await caller.bankAccounts.create({
      name: 'Compte courant',
      iban: 'FR76 3000 6000 0112 3456 7890 189',
      bic: 'BNPAFRPP',
      default: true,
    });
    const invoice = await inProcess.issued(caller, { customer_id: customerId, items: [line('Conseil', 1, 100)] });
    const answered = await caller.documents.get({ id: invoice.id });
    expect(answered.payment_reference).toBe('RF12F20260001');
    expect(answered.organization?.payment_account).toEqual({
      holder: 'Atelier Fontaine',
      iban: 'FR7630006000011234567890189',
      bic: 'BNPAFRPP',
    });

    // A new default account pays what is issued from now on; the invoice keeps asking for the account it printed.
    await caller.bankAccounts.create({
      name: 'Nouvelle banque',
      iban: 'FR14 2004 1010 0505 0001 3M02 606',
      bic: 'PSSTFRPPXXX',
      default: true,
    });
    await caller.bankAccounts.delete({ id: first.data.id });
    expect(await transferOf(invoice.uuid)).toMatchObject({
      iban: 'FR7630006000011234567890189',
      bic: 'BNPAFRPP',
      reference: 'RF12F20260001',
    });
    const xml = (await caller.documents.einvoice({ id: invoice.id, format: 'cii' })).content;
    expect(xml).toContain('<ram:IBANID>FR7630006000011234567890189</ram:IBANID>');
    expect(xml).toContain('<ram:BICID>BNPAFRPP</ram:BICID>');

    const next = await inProcess.issued(caller, { customer_id: customerId, items: [line('Suivi', 1, 50)] });
    expect(await transferOf(next.uuid)).toMatchObject({ iban: 'FR1420041010050500013M02606', reference: 'RF82F20260002' });
    expect((await caller.documents.einvoice({ id: next.id, format: 'ubl' })).content).toContain(
      '<cbc:ID>FR1420041010050500013M02606</cbc:ID>',
    );
  });

  it('answers no payment reference for a draft or a quote', async () => {
    const { caller, customerId } = await sellerWith([IBAN, BIC]);
    const draft = await inProcess.draft(caller, { customer_id: customerId, items: [line('Conseil', 1, 100)] });
    expect(draft.payment_reference).toBeNull();
    const quote = await inProcess.issued(caller, { type: 'estimate', customer_id: customerId, items: [line('Conseil', 1, 100)] });
    expect((await caller.documents.get({ id: quote.id })).payment_reference).toBeNull();
  });
});
