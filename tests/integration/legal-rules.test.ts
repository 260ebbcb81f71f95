import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { draft, issued, line, readyToInvoice } from '../helpers/documents';
import { clock } from '../../src/server/clock';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
afterEach(() => {
  clock.now = () => new Date();
});

async function template(session: Session) {
  return (await session.rest('GET', '/api/settings?key=document')).body.data;
}

async function numberingEvents(session: Session) {
  const answer = await session.rest('GET', '/api/audit?per_page=100');
  return (answer.body.data as { event: string; content: Record<string, unknown> }[]).filter((e) => e.event === 'numbering_change');
}

describe('numbers unique across all document types (CGI art. 242 nonies A)', () => {
  it('refuses a numbering under which invoices and credit notes could share a number, naming both, and logs nothing', async () => {
    const { session } = await registered(server.url);
    const current = await template(session);
    const colliding = { ...current, numbering: { ...current.numbering, credit: { ...current.numbering.invoice } } };
    const refused = await session.rest('PUT', '/api/settings?key=document', colliding);
    expect(refused.status).toBe(400);
    expect(refused.body.messages).toEqual([
      'Numérotation : les séries « Facture » et « Avoir » peuvent produire le même numéro ; donnez-leur des préfixes ou suffixes distincts (CGI art. 242 nonies A : un numéro unique par document)',
    ]);
    // Same refusal on the tRPC door; nothing saved, nothing logged.
    await expect(session.trpc().settings.update.mutate({ key: 'document', data: colliding })).rejects.toThrow(/« Facture » et « Avoir »/);
    expect(await template(session)).toEqual(current);
    expect(await numberingEvents(session)).toEqual([]);
  });

  it('refuses a prefix that runs into another series’ digits (F + 20001 = F2 + 0001)', async () => {
    const { session } = await registered(server.url);
    const current = await template(session);
    const refused = await session.rest('PUT', '/api/settings?key=document', {
      ...current,
      numbering: {
        ...current.numbering,
        invoice: { prefix: 'F', suffix: '', digit_count: 4 },
        estimate: { prefix: 'F2', suffix: '', digit_count: 4 },
      },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.messages).toEqual([expect.stringMatching(/^Numérotation : les séries « Facture » et « Devis » /)]);
  });

  it('logs each change of a series’ pattern on both doors, in the hash chain', async () => {
    const { session } = await registered(server.url);
    const current = await template(session);
    const viaRest = { ...current, numbering: { ...current.numbering, credit: { prefix: 'AVR-{year}-', suffix: '', digit_count: 4 } } };
    expect((await session.rest('PUT', '/api/settings?key=document', viaRest)).status).toBe(200);
    const viaTrpc = { ...viaRest, numbering: { ...viaRest.numbering, estimate: { prefix: 'DV-', suffix: '-{year}', digit_count: 3 } } };
    await session.trpc().settings.update.mutate({ key: 'document', data: viaTrpc });
    const events = await numberingEvents(session);
    expect(events.map((e) => e.content.numbering)).toEqual([
      { type: 'estimate', from: 'D{year}-[4 chiffres]', to: 'DV-[3 chiffres]-{year}' },
      { type: 'credit', from: 'AV{year}-[4 chiffres]', to: 'AVR-{year}-[4 chiffres]' },
    ]);
    expect((await session.rest('GET', '/api/audit/verify')).body).toEqual({ ok: true, entries: 2 });
  });

  it('never issues a number another type already holds: the credit note series moved onto old invoice numbers is refused', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const current = await template(session);
    const x = { prefix: 'X-', suffix: '', digit_count: 4 };
    expect(
      (await session.rest('PUT', '/api/settings?key=document', { ...current, numbering: { ...current.numbering, invoice: x } })).status,
    ).toBe(200);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Conseil', 1, 100)] });
    expect(invoice.number).toBe('X-0001');
    // Invoices move to F-, credit notes take X-: the two series no longer meet, but X-0001 is already an invoice's.
    const moved = { ...current.numbering, invoice: { prefix: 'F-', suffix: '', digit_count: 4 }, credit: x };
    expect((await session.rest('PUT', '/api/settings?key=document', { ...current, numbering: moved })).status).toBe(200);
    const credit = await session.rest('POST', `/api/documents/${invoice.id}/convert`, { type: 'credit' });
    expect(credit.status).toBe(201);
    const refused = await session.rest('POST', `/api/documents/${credit.body.data.id}/issue`);
    expect(refused.status).toBe(409);
    expect(refused.body.messages).toBe(
      'Le numéro X-0001 est déjà pris par une facture : ajoutez {year} ou un préfixe distinct à la numérotation (Paramètres → Apparence)',
    );
    expect((await session.rest('GET', `/api/documents/${credit.body.data.id}`)).body.status).toBe('draft');
  });
});

describe('late-penalty rate floor (C. com. L441-10 II: three times the legal interest rate)', () => {
  it('refuses a rate under 3 × the rate in force, naming the floor and its half-year, on both doors', async () => {
    clock.now = () => new Date('2025-10-15T10:00:00Z');
    const { session } = await registered(server.url);
    const settings = (await session.rest('GET', '/api/settings')).body;
    const refused = await session.rest('PUT', '/api/settings', { ...settings, late_penalty_rate: 8 });
    expect(refused.status).toBe(400);
    expect(refused.body.messages).toBe(
      'Pénalités de retard : au moins 3 × le taux d’intérêt légal (C. com. L441-10), soit 8,28 % (2e semestre 2025)',
    );
    await expect(session.trpc().settings.update.mutate({ data: { ...settings, late_penalty_rate: 8.27 } })).rejects.toThrow(/soit 8,28 %/);
    expect((await session.rest('GET', '/api/settings')).body.late_penalty_rate).toBe(12);
    expect((await session.rest('PUT', '/api/settings', { ...settings, late_penalty_rate: 8.28 })).status).toBe(200);
  });

  it('past the last published half-year, uses the last known rate and says so', async () => {
    clock.now = () => new Date('2027-03-01T10:00:00Z');
    const { session } = await registered(server.url);
    const settings = (await session.rest('GET', '/api/settings')).body;
    const refused = await session.rest('PUT', '/api/settings', { ...settings, late_penalty_rate: 3 });
    expect(refused.status).toBe(400);
    expect(refused.body.messages).toBe(
      'Pénalités de retard : au moins 3 × le taux d’intérêt légal (C. com. L441-10), soit 7,86 % (dernier taux publié connu : 1er semestre 2026)',
    );
    // The default (12 %) is above it: saving the defaults is accepted.
    expect((await session.rest('PUT', '/api/settings', settings)).status).toBe(200);
  });
});

describe('B2B payment terms (C. com. L441-10): past 60 days, issuing needs a confirmation', () => {
  it('refuses to issue a business invoice due past 60 days without the confirmation, then issues it with it', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const long = await draft(session, { customer_id: customerId, maturity: '2027-01-10', items: [line('Conseil', 1, 100)] });
    const refused = await session.rest('POST', `/api/documents/${long.id}/issue`);
    expect(refused.status).toBe(409);
    expect(refused.body.messages).toBe(
      'Délai de paiement supérieur à 60 jours (C. com. L441-10) : échéance au 10/01/2027, après le 01/01/2027 ; admis seulement si « 45 jours fin de mois » (au plus le 14/01/2027) est expressément convenu au contrat. Confirmez pour émettre.',
    );
    expect((await session.rest('GET', `/api/documents/${long.id}`)).body.status).toBe('draft');
    const confirmed = await session.rest('POST', `/api/documents/${long.id}/issue`, { confirm_payment_terms: true });
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.data.number).toMatch(/^F\d{4}-0001$/);
  });

  it('checks an issue without writing (dry_run): the same refusals, then « Prêt à être émis » and still a draft', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const long = await draft(session, { customer_id: customerId, maturity: '2027-01-10', items: [line('Conseil', 1, 100)] });
    const refused = await session.rest('POST', `/api/documents/${long.id}/issue`, { dry_run: true });
    expect(refused.status).toBe(409);
    expect(refused.body.messages).toMatch(/^Délai de paiement supérieur à 60 jours/);
    const checked = await session.rest('POST', `/api/documents/${long.id}/issue`, { dry_run: true, confirm_payment_terms: true });
    expect(checked.status).toBe(200);
    expect(checked.body.messages).toBe('Prêt à être émis');
    expect(checked.body.data).toMatchObject({ status: 'draft', number: null });
    expect((await session.rest('POST', `/api/documents/${long.id}/issue`, { dry_run: 'oui' })).body).toEqual({
      messages: 'Vérification seule : oui ou non',
      fields: { dry_run: 'Vérification seule : oui ou non' },
    });
    // Nothing was taken: the real issue gets the first number.
    const issuedNow = await session.trpc().documents.issue.mutate({ id: long.id, confirm_payment_terms: true });
    expect(issuedNow.data.number).toMatch(/^F\d{4}-0001$/);
    // A draft the law refuses (no customer address): 400, listed, nothing written.
    const bare = (await session.rest('POST', '/api/customers', { name: 'Sans Adresse SARL', type: 'company' })).body.data;
    const missing = await draft(session, { customer_id: bare.id, items: [line('Conseil', 1, 100)] });
    const problems = await session.rest('POST', `/api/documents/${missing.id}/issue`, { dry_run: true });
    expect(problems.status).toBe(400);
    expect(problems.body.messages).toEqual(expect.arrayContaining([expect.stringMatching(/^Mention obligatoire manquante : /)]));
    expect((await session.rest('GET', `/api/documents/${missing.id}`)).body.status).toBe('draft');
  });

  it('says when the term is past both caps, on the tRPC door too', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const over = await draft(session, { customer_id: customerId, maturity: '2027-01-15', items: [line('Conseil', 1, 100)] });
    await expect(session.trpc().documents.issue.mutate({ id: over.id })).rejects.toThrow(
      'Délai de paiement supérieur à 60 jours (C. com. L441-10) : échéance au 15/01/2027, au-delà des plafonds légaux entre entreprises (60 jours : 01/01/2027 ; 45 jours fin de mois : 14/01/2027). Confirmez pour émettre.',
    );
    expect((await session.trpc().documents.issue.mutate({ id: over.id, confirm_payment_terms: true })).data.status).toBe('unpaid');
  });

  it('asks nothing for 60 days exactly, nor for an individual customer', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const sixty = await draft(session, { customer_id: customerId, maturity: '2027-01-01', items: [line('Conseil', 1, 100)] });
    expect((await session.rest('POST', `/api/documents/${sixty.id}/issue`)).status).toBe(200);
    const person = await session.rest('POST', '/api/customers', {
      type: 'individual',
      name: 'Jeanne Petit',
      address: { line1: '5 rue Haute', postal_code: '33000', city: 'Bordeaux' },
      maturity: 90,
    });
    expect(person.status).toBe(201);
    const consumer = await draft(session, { customer_id: person.body.data.id, maturity: '2027-02-15', items: [line('Conseil', 1, 100)] });
    expect((await session.rest('POST', `/api/documents/${consumer.id}/issue`)).status).toBe(200);
  });
});

describe('exports and non-EU business customers (CGI art. 259-1, 262 I)', () => {
  it('accepts a Swiss customer’s tax id, asks no EU VAT number and prints the 259-1 basis on a services invoice without VAT', async () => {
    const { session } = await registered(server.url);
    await readyToInvoice(session);
    const swiss = await session.rest('POST', '/api/customers', {
      name: 'Chocolats Genève SA',
      vat_number: 'CHE-123.456.789 TVA',
      address: { line1: 'Rue du Rhône 1', postal_code: '1204', city: 'Genève', country: 'Suisse' },
    });
    expect(swiss.status).toBe(201);
    expect(swiss.body.data.vat_number).toBe('CHE-123.456.789 TVA');
    const invoice = await issued(session, { customer_id: swiss.body.data.id, items: [line('Conseil', 2, 500, 0)] });
    expect(invoice.legal_mentions).toContain('Autoliquidation : TVA due par le preneur établi hors de France (art. 259-1 du CGI)');
    // Without any tax id, a business outside the EU is still invoiced: no EU VAT number is demanded of it.
    const bare = await session.rest('POST', '/api/customers', {
      name: 'Maple Goods Inc.',
      address: { line1: '1 King St', postal_code: 'M5H', city: 'Toronto', country: 'Canada' },
    });
    const goods = await issued(session, { customer_id: bare.body.data.id, items: [line('Machine', 1, 900, 0, { kind: 'goods' })] });
    expect(goods.legal_mentions).toContain('Exonération de TVA, art. 262 I du CGI (exportation hors de l’Union européenne)');
  });

  it('issues services to a US business under its EIN, a tax id that is no VAT number, without a faked prefix', async () => {
    const { session } = await registered(server.url);
    await readyToInvoice(session);
    const us = await session.rest('POST', '/api/customers', {
      name: 'Acme Corp.',
      vat_number: '12-3456789',
      address: { line1: '1 Main St', postal_code: '10001', city: 'New York', country: 'États-Unis' },
    });
    expect(us.status).toBe(201);
    const invoice = await issued(session, { customer_id: us.body.data.id, items: [line('Conseil', 2, 500, 0)] });
    expect(invoice.number).toBeTruthy();
    expect(invoice.legal_mentions).toContain('Autoliquidation : TVA due par le preneur établi hors de France (art. 259-1 du CGI)');
    // In the XML the EIN identifies the buyer (BT-47), never as a VAT number (BT-48 carries a country prefix).
    const xml: string = (await session.rest('GET', `/api/documents/${invoice.id}/einvoice?format=cii`)).body;
    expect(xml).toContain('12-3456789');
    expect(xml).not.toMatch(/<ram:ID schemeID="VA">12-3456789/);
  });

  it('still refuses an invalid EU VAT number for an EU customer, and demands it for an untaxed sale to an EU business', async () => {
    const { session } = await registered(server.url);
    await readyToInvoice(session);
    const refused = await session.rest('POST', '/api/customers', {
      name: 'Berliner GmbH',
      vat_number: 'CHE-123.456.789',
      address: { line1: 'Hauptstr. 1', postal_code: '10115', city: 'Berlin', country: 'Allemagne' },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.messages).toBe('Numéro de TVA intracommunautaire invalide : il commence par le code pays (FR, DE, BE…)');
    const german = await session.rest('POST', '/api/customers', {
      name: 'Berliner GmbH',
      address: { line1: 'Hauptstr. 1', postal_code: '10115', city: 'Berlin', country: 'Allemagne' },
    });
    const doc = await draft(session, { customer_id: german.body.data.id, items: [line('Conseil', 1, 100, 0)] });
    const missing = await session.rest('POST', `/api/documents/${doc.id}/issue`);
    expect(missing.status).toBe(400);
    expect(missing.body.messages).toContain(
      'Mention obligatoire manquante : le numéro de TVA intracommunautaire du client (vente sans TVA à une entreprise d’un autre État de l’UE)',
    );
  });
});
