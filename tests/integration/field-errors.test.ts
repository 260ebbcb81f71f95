import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRPCClientError } from '@trpc/client';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { readyToInvoice } from '../helpers/documents';

/** A 400 says which fields it is about (`data.fields`), so that the forms show each message beside its field. */
let server: TestServer;
let session: Session;
beforeAll(async () => {
  server = await startTestServer();
  ({ session } = await registered(server.url));
});
afterAll(async () => server?.close());

/** The `data` of the tRPC error a call was refused with. */
async function refusal(
  call: Promise<unknown>,
): Promise<{ httpStatus: number; messages: string | string[]; fields?: Record<string, string> }> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(TRPCClientError);
  return (error as TRPCClientError<never>).data as never;
}

describe('field errors on a 400', () => {
  it('names each field Zod refused, by its path in the form (the `data` of an update is the form)', async () => {
    const trpc = session.trpc();
    const created = await refusal(
      trpc.customers.create.mutate({ name: '', email: 'pas-un-email', address: { postal_code: '7500' } } as never),
    );
    expect(created.httpStatus).toBe(400);
    expect(Object.keys(created.fields ?? {}).sort()).toEqual(['address.postal_code', 'email', 'name']);
    expect(created.fields?.email).toMatch(/e-mail/i);

    const customer = await trpc.customers.create.mutate({ name: 'Boulangerie Martin' } as never);
    const updated = await refusal(trpc.customers.update.mutate({ id: customer.data.id, data: { name: '' } } as never));
    expect(updated.httpStatus).toBe(400);
    expect(Object.keys(updated.fields ?? {})).toEqual(['name']);
  });

  it('names the field of a service’s own refusal: an archived customer, a due date before the date, an unknown unit', async () => {
    const trpc = session.trpc();
    const { customerId } = await readyToInvoice(session);
    expect((await session.rest('DELETE', `/api/customers/${customerId}`)).status).toBe(200);
    const archived = await refusal(
      trpc.documents.create.mutate({ type: 'invoice', customer_id: customerId, date: '2026-03-10', items: [] } as never),
    );
    expect(archived.httpStatus).toBe(400);
    expect(archived.messages).toBe('Client : ce client est archivé, restaurez-le pour lui établir un document');
    expect(archived.fields).toEqual({ customer_id: 'Ce client est archivé, restaurez-le pour lui établir un document' });

    const early = await refusal(
      trpc.documents.create.mutate({ type: 'invoice', date: '2026-03-10', maturity: '2026-03-01', items: [] } as never),
    );
    expect(early.httpStatus).toBe(400);
    expect(Object.keys(early.fields ?? {})).toEqual(['maturity']);

    const item = await refusal(trpc.items.create.mutate({ name: 'Audit', unit_price: 100, unit: 'parsec' } as never));
    expect(item.httpStatus).toBe(400);
    expect(item.messages).toMatch(/Unité inconnue : « parsec »/);
    expect(item.fields?.unit).toBe('Unité inconnue : ajoutez-la dans Paramètres → Unités');

    const expense = await refusal(
      trpc.expenses.create.mutate({ date: '2026-03-10', supplier: 'EDF', category: '---', amount: 120 } as never),
    );
    expect(expense.httpStatus).toBe(400);
    expect(expense.fields).toEqual({ category: 'Un nom avec au moins une lettre ou un chiffre' });
  });

  it('gives REST the same `fields` as tRPC, beside its `messages` (a bad field in a POST, a PUT and a service’s refusal)', async () => {
    const bad = { name: '', email: 'pas-un-email', address: { postal_code: '7500' } };
    const rest = await session.rest('POST', '/api/customers', bad);
    const trpc = await refusal(session.trpc().customers.create.mutate(bad as never));
    expect(rest.status).toBe(400);
    expect(rest.body.messages).toEqual(trpc.messages);
    expect(rest.body.fields).toEqual(trpc.fields);
    expect(Object.keys(rest.body.fields).sort()).toEqual(['address.postal_code', 'email', 'name']);
    expect(rest.body.fields.email).toMatch(/e-mail/i);
    expect(Object.keys(rest.body).sort()).toEqual(['fields', 'messages']);

    const customer = await session.rest('POST', '/api/customers', { name: 'Boulangerie Durand' });
    const updated = await session.rest('PUT', `/api/customers/${customer.body.data.id}`, { name: '' });
    expect(updated.status).toBe(400);
    expect(Object.keys(updated.body.fields)).toEqual(['name']);

    const item = await session.rest('POST', '/api/items', { name: 'Audit', unit_price: 100, unit: 'parsec' });
    expect(item.status).toBe(400);
    expect(item.body.messages).toMatch(/Unité inconnue : « parsec »/);
    expect(item.body.fields).toEqual({ unit: 'Unité inconnue : ajoutez-la dans Paramètres → Unités' });
  });

  it('says nothing of fields for a refusal that is not about one', async () => {
    const gone = await refusal(session.trpc().customers.get.query({ id: 999_999 }));
    expect(gone.httpStatus).toBe(404);
    expect(gone.fields).toBeUndefined();
    const restGone = await session.rest('GET', '/api/customers/999999');
    expect(restGone.status).toBe(404);
    expect(restGone.body).toEqual({ messages: 'Client introuvable' });
  });
});
