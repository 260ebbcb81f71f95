import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withServerDb } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { businessCustomer, draft, issued, line, readyToInvoice, sellerIdentity } from '../helpers/documents';
import { inlined } from '../helpers/openapi-document';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const quai = { line1: '18 quai Saint-Antoine', line2: 'Quai de livraison B', postal_code: '69002', city: 'Lyon', country: 'France' };
const depot = { line1: '4 rue de l’Industrie', postal_code: '69200', city: 'Vénissieux', country: 'France' };

/** A business customer whose goods go to a warehouse, not to their billing address. */
async function customerWithWarehouse(session: Session): Promise<number> {
  const answer = await session.rest('POST', '/api/customers', { ...businessCustomer, name: 'Boulangerie Martin — dépôt', shipping: quai });
  expect(answer.status).toBe(201);
  return answer.body.data.id;
}

describe('purchase-order number and delivery address of a document (C. com. L441-9, 2026 e-invoicing)', () => {
  it('round-trip through REST and the typed client, the customer party showing the document’s delivery address', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const created = await draft(session, {
      customer_id: customerId,
      purchase_order: ' BC-2026-117 ',
      delivery_address: depot,
      items: [line('Pose', 1, 1000)],
    });
    expect(created).toMatchObject({ purchase_order: 'BC-2026-117', delivery_address: { ...depot, line2: '', state: '' } });
    // The customer as the document shows them: delivered at the document's address.
    expect(created.customer.shipping).toMatchObject(depot);
    expect(created.customer.address.city).toBe('Lyon');

    const typed = await session.trpc().documents.get.query({ id: created.id });
    expect(typed.purchase_order).toBe('BC-2026-117');
    expect(typed.delivery_address?.city).toBe('Vénissieux');

    // PUT is the whole form: null is "identique à l'adresse de facturation", '' no PO number.
    const cleared = await session.rest('PUT', `/api/documents/${created.id}`, {
      date: '2026-11-02',
      customer_id: customerId,
      purchase_order: '',
      delivery_address: null,
      items: [line('Pose', 1, 1000)],
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data).toMatchObject({ purchase_order: '', delivery_address: null });
    expect(cleared.body.data.customer.shipping).toMatchObject({ line1: '', city: '' });

    const updated = await session.trpc().documents.update.mutate({
      id: created.id,
      data: { date: '2026-11-02', customer_id: customerId, purchase_order: 'PO 88', delivery_address: quai },
    });
    expect(updated.data).toMatchObject({ purchase_order: 'PO 88', delivery_address: quai });
    expect((await session.rest('GET', `/api/documents/${created.id}`)).body.delivery_address).toEqual({ ...quai, state: '' });
  });

  it('start at the customer’s shipping address when the form leaves the delivery address out and it differs from billing', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const warehouse = await customerWithWarehouse(session);
    expect((await draft(session, { customer_id: warehouse, items: [line('Pain', 10, 2)] })).delivery_address).toMatchObject(quai);
    // Same address (no shipping address given: the customer's is blank) → delivered at the billing address.
    expect((await draft(session, { customer_id: customerId, items: [line('Pain', 10, 2)] })).delivery_address).toBeNull();
    // Sent on purpose as null: the billing address, whatever the customer's shipping address.
    expect((await draft(session, { customer_id: warehouse, delivery_address: null })).delivery_address).toBeNull();
  });

  it('are frozen at issue: shown as issued on the document, its share page and in the log, whatever the customer becomes', async () => {
    const { session } = await registered(server.url);
    await readyToInvoice(session);
    const warehouse = await customerWithWarehouse(session);
    const invoice = await issued(session, { customer_id: warehouse, purchase_order: 'BC-2026-117', items: [line('Pose', 1, 1000)] });
    expect(invoice).toMatchObject({ purchase_order: 'BC-2026-117', delivery_address: quai });
    expect(invoice.customer.shipping).toMatchObject(quai);

    // The customer moves their warehouse; the issued invoice keeps where it was delivered.
    const moved = await session.rest('PUT', `/api/customers/${warehouse}`, { ...businessCustomer, shipping: depot });
    expect(moved.status).toBe(200);
    const read = (await session.rest('GET', `/api/documents/${invoice.id}`)).body;
    expect(read.customer.shipping).toMatchObject(quai);
    expect(read.purchase_order).toBe('BC-2026-117');

    // An issued invoice is not edited: neither field changes.
    const edit = await session.rest('PUT', `/api/documents/${invoice.id}`, {
      date: '2026-11-02',
      customer_id: warehouse,
      purchase_order: 'AUTRE',
      delivery_address: depot,
      items: [line('Pose', 1, 1000)],
    });
    expect(edit.status).toBe(409);

    const shared = (await session.rest('GET', `/api/share/${invoice.uuid}`)).body.document;
    expect(shared).toMatchObject({ purchase_order: 'BC-2026-117', delivery_address: quai });
    expect(shared.customer.shipping).toMatchObject(quai);

    // Both are part of the hashed legal content: an UPDATE on either breaks verify at the issue entry.
    expect((await session.rest('GET', '/api/audit/verify')).body).toEqual({ ok: true, entries: 1 });
    await withServerDb(server, (db) =>
      db.updateTable('documents').set({ purchase_order: 'BC-9999' }).where('id', '=', invoice.id).execute(),
    );
    expect((await session.rest('GET', '/api/audit/verify')).body).toMatchObject({ ok: false, entries: 1, first_broken: 1 });
  });

  it('a delivery address changed in the customer snapshot is detected by verify', async () => {
    const { session } = await registered(server.url);
    await readyToInvoice(session);
    const warehouse = await customerWithWarehouse(session);
    const invoice = await issued(session, { customer_id: warehouse, items: [line('Pose', 1, 1000)] });
    expect((await session.rest('GET', '/api/audit/verify')).body).toEqual({ ok: true, entries: 1 });
    await withServerDb(server, (db) =>
      db
        .updateTable('documents')
        .set({ customer_snapshot: sql`replace(customer_snapshot, '18 quai Saint-Antoine', '1 rue Ailleurs')` })
        .where('id', '=', invoice.id)
        .execute(),
    );
    expect((await session.rest('GET', '/api/audit/verify')).body).toMatchObject({ ok: false, entries: 1, first_broken: 1 });
  });

  it.each([
    [{ purchase_order: 'B'.repeat(61) }, 'N° de bon de commande : 60 caractères au plus'],
    [{ purchase_order: 117 }, 'N° de bon de commande : un texte est attendu'],
    [{ delivery_address: { line1: '18 quai Saint-Antoine', city: 'Lyon' } }, 'Adresse de livraison : le code postal est attendu'],
    [{ delivery_address: { postal_code: '69002' } }, 'Adresse de livraison : l’adresse (rue) est attendue'],
    [{ delivery_address: { ...quai, city: 'L'.repeat(101) } }, 'Adresse de livraison (ville) : 100 caractères au plus'],
    [
      { delivery_address: '18 quai Saint-Antoine, Lyon' },
      'Adresse de livraison : une adresse est attendue (line1, postal_code, city, country), ou null pour l’adresse de facturation',
    ],
  ])('refuse %j with a French 400, on both doors, and keep nothing', async (body, message) => {
    const { session } = await registered(server.url);
    const before = (await session.rest('GET', '/api/documents?type=invoice')).body.total;
    const answer = await session.rest('POST', '/api/documents', { date: '2026-11-02', ...body });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body.messages)).toContain(message);
    await expect(session.trpc().documents.create.mutate({ date: '2026-11-02', ...(body as object) })).rejects.toThrow(message);
    expect((await session.rest('GET', '/api/documents?type=invoice')).body.total).toBe(before);
  });
});

describe('RM registration of artisans, beside or instead of the RCS (C. com. R123-237)', () => {
  it('lets a company registered at the RM only issue, printing the RM in its identity line', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const artisan = { ...sellerIdentity, rcs_city: '', rm_registration: '552 032 534 RM 75' };
    const saved = await session.rest('PUT', '/api/organization', artisan);
    expect(saved.status).toBe(200);
    expect(saved.body.data.rm_registration).toBe('552 032 534 RM 75');
    expect((await session.trpc().organization.get.query()).rm_registration).toBe('552 032 534 RM 75');

    const invoice = await issued(session, { customer_id: customerId, items: [line('Pose', 1, 1000)] });
    expect(invoice.organization.identity).toContain('RM 552 032 534 RM 75');
    expect(invoice.organization.identity.some((l: string) => l.startsWith('RCS'))).toBe(false);
    expect(invoice.organization.rm_registration).toBe('552 032 534 RM 75');
  });

  it('refuses to issue a company’s invoice with neither RCS nor RM, naming both', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    await session.rest('PUT', '/api/organization', { ...sellerIdentity, rcs_city: '', rm_registration: '' });
    const created = await draft(session, { customer_id: customerId, items: [line('Pose', 1, 1000)] });
    const answer = await session.rest('POST', `/api/documents/${created.id}/issue`);
    expect(answer.status).toBe(400);
    expect(answer.body.messages).toContain(
      'Mention obligatoire manquante : l’immatriculation de votre entreprise : la ville du RCS, ou le RM pour un artisan (Paramètres → Infos de l’entreprise)',
    );
  });

  it('refuses an RM registration over 100 characters with a French 400', async () => {
    const { session } = await registered(server.url);
    const answer = await session.rest('PUT', '/api/organization', { ...sellerIdentity, rm_registration: 'R'.repeat(101) });
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body.messages)).toContain('Immatriculation au RM : 100 caractères au plus');
    await expect(session.trpc().organization.update.mutate({ ...sellerIdentity, rm_registration: 'R'.repeat(101) })).rejects.toThrow(
      'Immatriculation au RM : 100 caractères au plus',
    );
  });
});

describe('a deposit invoice takes the operation nature of the estimate or order it is paid on', () => {
  it.each([
    [
      'goods and services',
      [line('Pose', 1, 1000), line('Fournitures', 1, 500, 20, { kind: 'goods' })],
      'mixed',
      'Livraison de biens et prestation de services',
    ],
    ['goods only', [line('Fournitures', 1, 500, 20, { kind: 'goods' })], 'goods', 'Livraison de biens'],
    ['services only', [line('Pose', 1, 1000)], 'services', 'Prestation de services'],
  ])('%s', async (_name, items, nature, label) => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const order = await issued(session, { type: 'order', customer_id: customerId, purchase_order: 'BC-7', items });
    const deposit = await session.rest('POST', `/api/documents/${order.id}/deposit`, { percent: 30 });
    expect(deposit.status).toBe(201);
    // Its lines say "Acompte"; its nature is the order's, and it keeps the customer's PO number.
    expect(deposit.body.data).toMatchObject({ kind: 'deposit', operation_nature: nature, purchase_order: 'BC-7' });
    const issuedDeposit = await session.rest('POST', `/api/documents/${deposit.body.data.id}/issue`);
    expect(issuedDeposit.status).toBe(200);
    expect(issuedDeposit.body.data.legal_mentions).toContain(`Nature de l’opération : ${label}`);
  });
});

describe('the OpenAPI document describes the new fields (it comes from the schemas)', () => {
  it('names purchase_order and delivery_address on the document form and answer, rm_registration on the organisation', async () => {
    const { session } = await registered(server.url);
    const spec = (await session.rest('GET', '/api/openapi.json')).body;
    // Shared schemas are components: read with every `$ref` replaced by what it points at.
    const json = (op: { requestBody?: unknown; responses?: unknown }, at: 'request' | 'response') =>
      JSON.stringify(inlined(spec, at === 'request' ? op.requestBody : op.responses));
    for (const at of ['request', 'response'] as const) {
      expect(json(spec.paths['/api/documents'].post, at)).toContain('"purchase_order"');
      expect(json(spec.paths['/api/documents'].post, at)).toContain('"delivery_address"');
      expect(json(spec.paths['/api/organization'].put, at)).toContain('"rm_registration"');
    }
    expect(json(spec.paths['/api/documents/{id}'].get, 'response')).toContain('"operation_nature"');
  });
});
