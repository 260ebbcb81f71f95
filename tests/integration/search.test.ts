import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { draft, issued, line, readyToInvoice } from '../helpers/documents';
import { registered } from '../helpers/clients';
import { documentIdsMatching, searchEntries, toMatchQuery, upsertSearchEntry } from '../../src/server/db/queries/search';
import fc from 'fast-check';
import { onPostgres, openEmptyTestDatabase } from '../helpers/database';
import { migrateToLatest } from '../../src/server/migrate';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const titles = (body: { data: { title: string }[] }) => body.data.map((r) => r.title).sort();

describe('global search (GET /api/search)', () => {
  it('finds customers and items by prefix, number, e-mail, SIREN and code, accents folded', async () => {
    const { session } = await registered(server.url);
    await session.rest('POST', '/api/customers', {
      name: 'Clément Électricité',
      email: 'contact@clement-elec.fr',
      business_id: '552032534',
    });
    await session.rest('POST', '/api/customers', { name: 'Boulangerie Martin', address: { city: 'Lyon' } });
    await session.rest('POST', '/api/items', { code: 'ELEC-01', name: 'Installation électrique', unit_price: 450 });
    const search = async (q: string) => (await session.rest('GET', `/api/search?q=${encodeURIComponent(q)}`)).body;

    expect(titles(await search('elec'))).toEqual(['Clément Électricité', 'Installation électrique']);
    expect(titles(await search('clement'))).toEqual(['Clément Électricité']);
    expect(titles(await search('CL-00002'))).toEqual(['Boulangerie Martin']);
    expect(titles(await search('contact@clement'))).toEqual(['Clément Électricité']);
    expect(titles(await search('552032534'))).toEqual(['Clément Électricité']);
    expect(titles(await search('lyon'))).toEqual(['Boulangerie Martin']);
    expect(titles(await search('boul mar'))).toEqual(['Boulangerie Martin']); // the start of each word
    expect((await search('elec-01')).data[0]).toMatchObject({ kind: 'item', title: 'Installation électrique', subtitle: 'ELEC-01' });
    expect(await search('')).toEqual({ total: 0, data: [] });
  });

  it('treats FTS syntax in the text as words, never as a query', async () => {
    const { session } = await registered(server.url);
    for (const q of ['"', 'NEAR(a b)', 'a OR b', '*', 'title:x', '^', ')(', "l'atelier"]) {
      const answer = await session.rest('GET', `/api/search?q=${encodeURIComponent(q)}`);
      expect(answer.status, q).toBe(200);
    }
    // Each word typed as the start of one organisation's words of one kind; a word of several tokens as their phrase.
    expect(toMatchQuery(12, 'customer', 'a "b" c*')).toBe('"o12ca"* "o12cb"* "o12cc"*');
    expect(toMatchQuery(3, 'document', 'jean-paul f-2024')).toBe('"o3djean o3dpaul"* "o3df o3d2024"*');
    expect(toMatchQuery(1, 'item', 'Élé')).toBe('"o1iÉlé"*'); // FTS5 folds the case and accents of both sides
    expect(toMatchQuery(1, 'customer', '  ')).toBeNull();
    expect(toMatchQuery(1, 'customer', '- @')).toBeNull(); // words without a letter or digit match nothing
  });

  it('follows edits and archives, and never returns another organisation’s records', async () => {
    const { session } = await registered(server.url);
    const { session: stranger } = await registered(server.url);
    const id = (await session.rest('POST', '/api/customers', { name: 'Ancien Nom' })).body.data.id;
    await session.rest('PUT', `/api/customers/${id}`, { name: 'Nouveau Nom' });
    expect((await session.rest('GET', '/api/search?q=ancien')).body.total).toBe(0);
    expect((await session.rest('GET', '/api/search?q=nouveau')).body.total).toBe(1);
    expect((await stranger.rest('GET', '/api/search?q=nouveau')).body.total).toBe(0);
    await session.rest('DELETE', `/api/customers/${id}`);
    expect((await session.rest('GET', '/api/search?q=nouveau')).body.total).toBe(0);
    await session.rest('POST', `/api/customers/${id}/restore`);
    expect((await session.rest('GET', '/api/search?q=nouveau')).body.total).toBe(1);
  });

  it('finds documents by number and customer, with their type for the link; a deleted draft leaves the index', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const invoice = await issued(session, { customer_id: customerId, items: [line('Audit', 1, 100)] });
    const estimate = await draft(session, { type: 'estimate', customer_id: customerId, items: [line('Devis', 1, 100)] });
    const found = (await session.rest('GET', `/api/search?q=${encodeURIComponent(invoice.number)}`)).body.data;
    expect(found).toEqual([
      { kind: 'document', id: invoice.id, title: invoice.number, subtitle: 'Facture · Boulangerie Martin', document_type: 'invoice' },
    ]);
    const byCustomer = (await session.rest('GET', '/api/search?q=boulangerie')).body.data.filter(
      (r: { kind: string }) => r.kind === 'document',
    );
    expect(byCustomer.map((r: { id: number }) => r.id).sort()).toEqual([invoice.id, estimate.id].sort());
    const byPart = (await session.rest('GET', `/api/search?q=${encodeURIComponent(invoice.number.slice(-3))}`)).body.data;
    expect(byPart.map((r: { id: number }) => r.id)).toEqual([invoice.id]); // any part of the number
    await session.rest('DELETE', `/api/documents/${estimate.id}`);
    expect((await session.rest('GET', '/api/search?q=devis')).body.total).toBe(0);
  });
  it('finds documents by their total TTC, typed as people type amounts', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    // 1552 HT at 20 % = 1862,40 TTC; 1293,33 HT = 1551,996 → 1552,00 TTC.
    const big = await issued(session, { customer_id: customerId, items: [line('Étude', 1, 1552)] });
    const round = await issued(session, { customer_id: customerId, items: [line('Pose', 1, 1293.33)] });
    const other = await draft(session, { customer_id: customerId, items: [line('Divers', 1, 10)] });
    const ids = async (q: string) =>
      (await session.rest('GET', `/api/search?q=${encodeURIComponent(q)}`)).body.data
        .filter((r: { kind: string }) => r.kind === 'document')
        .map((r: { id: number }) => r.id);
    for (const q of ['1862,40', '1862.4', '1 862,40', '1\u202f862,40 €', '1862,40€']) expect(await ids(q), q).toEqual([big.id]);
    // « 1552 » is the total of the second, and no part of any number: found by its amount only.
    expect(await ids('1552')).toEqual([round.id]);
    expect(await ids('12')).toEqual([other.id]); // 10 HT + 20 % = 12,00 TTC, a draft too
    expect(await ids('1862,41')).toEqual([]);
    const { session: stranger } = await registered(server.url);
    expect((await stranger.rest('GET', '/api/search?q=1862,40')).body.total).toBe(0);
  });

  it('never returns nor counts another organisation’s entries for the same words', async () => {
    const { session } = await registered(server.url);
    const { session: neighbour } = await registered(server.url);
    for (const who of [session, neighbour]) {
      const { customerId } = await readyToInvoice(who); // the same customer's name in both
      await issued(who, { customer_id: customerId, items: [line('Pose', 1, 100)] });
      await draft(who, { customer_id: customerId, items: [line('Pose', 1, 100)] });
    }
    await neighbour.rest('POST', '/api/customers', { name: 'Boulangerie Martin Fils' });
    const found = (await session.rest('GET', '/api/search?q=boul%20mart')).body;
    expect(found.data.map((r: { kind: string }) => r.kind)).toEqual(['customer', 'document', 'document']);
    const listed = (await session.rest('GET', '/api/documents?search=martin')).body;
    expect(listed.total).toBe(2);
    expect((await neighbour.rest('GET', '/api/documents?search=boulang')).body.total).toBe(2);
    expect(
      (await neighbour.rest('GET', '/api/search?q=martin')).body.data.filter((r: { kind: string }) => r.kind === 'customer'),
    ).toHaveLength(2);
  });

  it('lists the newest matching documents first, whether the typed start is a few whole words or more than the index spells out', async () => {
    const { session } = await registered(server.url);
    await readyToInvoice(session);
    const customer = async (name: string) => (await session.rest('POST', '/api/customers', { name })).body.data.id as number;
    // 'boul' starts three words of the index; 'du' starts seventeen (one more than are spelled out: FTS5 expands it).
    const bakers = await Promise.all(['Boulangerie Alpha', 'Boulanger Beta', 'Boulangeries Gamma'].map(customer));
    const others = await Promise.all([...'abcdefghijklmnopq'].map((letter) => customer(`Du${letter}x Maison`)));
    const made: { id: number; customer: number }[] = [];
    for (let i = 0; i < 24; i++) {
      for (const customerId of [bakers[i % 3], others[i % 17]] as number[]) {
        made.push({ id: (await draft(session, { customer_id: customerId, items: [line('Pose', 1, 10)] })).id, customer: customerId });
      }
    }
    const newest = (customers: number[], count: number) =>
      made
        .filter((d) => customers.includes(d.customer))
        .map((d) => d.id)
        .sort((a, b) => b - a)
        .slice(0, count);
    const found = async (q: string) => (await session.rest('GET', `/api/search?q=${q}`)).body.data as { kind: string; id: number }[];
    const boul = await found('boul');
    // Twenty places: four customers (readyToInvoice's Boulangerie Martin too), then the sixteen newest of the bakers' 24 documents.
    expect(boul.filter((r) => r.kind === 'customer')).toHaveLength(4);
    expect(boul.filter((r) => r.kind === 'document').map((r) => r.id)).toEqual(newest(bakers, 16));
    const du = await found('du');
    expect(du.filter((r) => r.kind === 'customer')).toHaveLength(10);
    expect(du.filter((r) => r.kind === 'document').map((r) => r.id)).toEqual(newest(others, 10));
    expect((await found('boulangeries%20gam')).filter((r) => r.kind === 'document').map((r) => r.id)).toEqual(
      newest([bakers[2] as number], 17),
    );
    expect(await found('boulx')).toEqual([]);
  });

  it('finds a customer and its documents by the words of its new name, and no longer by the words it lost', async () => {
    const { session } = await registered(server.url);
    await readyToInvoice(session);
    const created = (await session.rest('POST', '/api/customers', { name: 'Quincaillerie Zéphyr' })).body.data as { id: number };
    const invoice = await draft(session, { customer_id: created.id, items: [line('Pose', 1, 10)] });
    const found = async (q: string) =>
      ((await session.rest('GET', `/api/search?q=${q}`)).body.data as { kind: string; id: number }[]).map((r) => `${r.kind} ${r.id}`);
    const listed = async (q: string) =>
      ((await session.rest('GET', `/api/documents?search=${q}`)).body.data as { id: number }[]).map((d) => d.id);
    expect(await found('zeph')).toEqual([`customer ${created.id}`, `document ${invoice.id}`]);
    expect((await session.rest('PUT', `/api/customers/${created.id}`, { name: 'Quincaillerie Aquilon' })).status).toBe(200);
    const resaved = await session.rest('PUT', `/api/documents/${invoice.id}`, {
      date: '2026-11-02',
      customer_id: created.id,
      items: [line('Pose', 1, 10)],
    });
    expect(resaved.status, JSON.stringify(resaved.body)).toBe(200);
    // The words the entries lost may stay known to the index: they stand for nothing any more.
    expect(await found('zeph')).toEqual([]);
    expect(await listed('zeph')).toEqual([]);
    expect(await found('aqui')).toEqual([`customer ${created.id}`, `document ${invoice.id}`]);
    expect(await listed('quincaillerie%20aqui')).toEqual([invoice.id]);
  });

  it('folds accents and case, and keeps a word of several tokens in order', async () => {
    const { session } = await registered(server.url);
    await session.rest('POST', '/api/customers', { name: 'Éléonore Jean-Paul', email: 'jp.eleonore@exemple.fr' });
    const search = async (q: string) => titles((await session.rest('GET', `/api/search?q=${encodeURIComponent(q)}`)).body);
    for (const q of ['eleo', 'ÉLÉO', 'jean-paul', 'jean-pa', 'JEAN-PAUL eleonore', 'jp.eleonore@exemple.fr', 'eleonore@exem'])
      expect(await search(q), q).toEqual(['Éléonore Jean-Paul']);
    for (const q of ['paul-jean', 'jp@exemple', 'leonore']) expect(await search(q), q).toEqual([]);
  });
});

describe('search entries of organisations whose ids start alike', () => {
  it('keeps organisation 1’s words from 12’s and 123’s, words starting with digits included', async () => {
    const empty = openEmptyTestDatabase();
    const db = empty.connection.db;
    await migrateToLatest(db);
    const entry = (organizationId: number, kind: 'customer' | 'document', refId: number, title: string) =>
      upsertSearchEntry(db, {
        organizationId,
        kind,
        refId,
        title,
        subtitle: '',
        body: '',
        ...(kind === 'document' ? { number: null } : {}),
      });
    await entry(1, 'customer', 1, '23 Conseil');
    await entry(12, 'customer', 2, '3 Conseil');
    await entry(123, 'customer', 3, 'Conseil 1');
    await entry(1, 'document', 4, '2 Conseil');
    await entry(12, 'document', 5, '2 Conseil');
    await entry(123, 'document', 6, 'Conseil');
    const found = async (organizationId: number, text: string) =>
      (await searchEntries(db, { organizationId, text, limit: 20 })).map((r) => `${r.kind} ${r.id}`);
    expect(await found(1, '2')).toEqual(['customer 1', 'document 4']);
    expect(await found(12, '3')).toEqual(['customer 2']);
    expect(await found(123, 'cons')).toEqual(['customer 3', 'document 6']);
    expect(await found(1, 'conseil')).toEqual(['customer 1', 'document 4']);
    expect(await found(12, '2 cons')).toEqual(['document 5']);
    expect(await documentIdsMatching(db, 1, '2')).toEqual([4]);
    expect(await documentIdsMatching(db, 12, 'cons')).toEqual([5]);
    expect(await documentIdsMatching(db, 123, '1')).toEqual([]);
    await empty.remove();
  });
});

// The index's words and the typed ones are split by the same code and folded by the same tokenizer: any text finds the
// entry it names, whatever its letters, marks, scripts or separators (PostgreSQL folds its own way, db/dialect.ts).
describe.skipIf(onPostgres)('search words split as FTS5 splits them', () => {
  it('finds every entry by its own title, and only in its organisation', async () => {
    const empty = openEmptyTestDatabase();
    const db = empty.connection.db;
    await migrateToLatest(db);
    const text = fc
      .array(
        fc.oneof(
          fc.string({ unit: 'grapheme', maxLength: 6 }),
          fc.constantFrom('Éé', 'ŒUF', 'ǅ', 'ﬁ', 'e\u0301', '١٢', '-', '@', '.', ' ', '’'),
        ),
        {
          maxLength: 6,
        },
      )
      .map((parts) => parts.join(''));
    let refId = 0;
    await fc.assert(
      fc.asyncProperty(text, async (title) => {
        refId += 1;
        await upsertSearchEntry(db, { organizationId: 1, kind: 'customer', refId, title, subtitle: '', body: '' });
        const found = (await searchEntries(db, { organizationId: 1, text: title, limit: 1000 })).map((r) => r.id);
        const elsewhere = await searchEntries(db, { organizationId: 11, text: title, limit: 1000 });
        expect(elsewhere).toEqual([]);
        if (toMatchQuery(1, 'customer', title)) expect(found).toContain(refId);
        else expect(found).toEqual([]);
      }),
      { numRuns: 300 },
    );
    await empty.remove();
  });
});
