import { TRPCClientError } from '@trpc/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppRouter } from '../../src/server/routers/_app';
import { registered, type Session } from '../helpers/clients';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let session: Session;
beforeAll(async () => {
  server = await startTestServer();
  ({ session } = await registered(server.url));
});
afterAll(async () => {
  await server.close();
});

/** Half of a UTF-16 pair: JSON writes it as `\ud800`, UTF-8 has no form for it. */
const LONE = '\ud800';

const unitNames = async () => ((await session.rest('GET', '/api/units')).body.data as { name: string }[]).map((u) => u.name);

describe('a lone surrogate in any input is refused with a French 400, on both doors', () => {
  it('a unit named with one: 400 twice in a row on REST, nothing written, the server alive', async () => {
    const before = await unitNames();
    for (const name of [LONE, `m${LONE}`]) {
      for (let attempt = 0; attempt < 2; attempt++) {
        const created = await session.rest('POST', '/api/units', { name });
        expect(created.status).toBe(400);
        expect(created.body.messages).toBe('Nom contient un caractère invalide');
        expect(created.body.fields).toEqual({ name: 'Contient un caractère invalide' });
      }
    }
    expect(await unitNames()).toEqual(before);
    expect((await fetch(`${server.url}/api/version`)).status).toBe(200);
  });

  it('the same through tRPC, twice, and a valid pair (an emoji) still goes through', async () => {
    const trpc = session.trpc();
    for (let attempt = 0; attempt < 2; attempt++) {
      const error = await trpc.units.create.mutate({ name: `kg${LONE}` }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TRPCClientError);
      const { data, message } = error as TRPCClientError<AppRouter>;
      expect(data?.httpStatus).toBe(400);
      expect(message).toBe('Nom contient un caractère invalide');
    }
    expect(await unitNames()).not.toContain('kg\ufffd');
    await expect(trpc.units.create.mutate({ name: 'boîte 📦' })).resolves.toMatchObject({ data: { name: 'boîte 📦' } });
  });

  it('wherever it is: a nested field, a key, a list, a tRPC query', async () => {
    const nested = await session.rest('POST', '/api/customers', { name: 'Client', address: { city: `Lyon${LONE}` } });
    expect(nested.status).toBe(400);
    expect(nested.body.messages).toBe('Ville contient un caractère invalide');
    expect(Object.keys(nested.body.fields)).toEqual(['address.city']);
    const key = await session.rest('POST', '/api/customers', { name: 'Client', [`clé${LONE}`]: 1 });
    expect(key).toMatchObject({ status: 400, body: { messages: 'La saisie contient un caractère invalide' } });
    const query = await session.fetch(
      `${server.url}/api/trpc/documents.list?input=${encodeURIComponent(JSON.stringify({ json: { search: `FAC${LONE}` } }))}`,
    );
    expect(query.status).toBe(400);
    expect(((await query.json()) as { error: { json: { message: string } } }).error.json.message).toMatch(
      /contient un caractère invalide$/,
    );
    expect((await session.rest('GET', '/api/customers')).body.total).toBe(0);
  });
});
