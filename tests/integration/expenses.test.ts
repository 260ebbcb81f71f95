import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withServerDb } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const fuel = {
  date: '2026-03-12',
  supplier: 'TotalEnergies',
  category: 'deplacements',
  label: 'Plein du Kangoo',
  amount: '84,60',
  vat: [{ rate: 20, amount: 14.1 }],
  payment_method: 'card',
  status: 'paid',
};

// The smallest valid files of each kind, and two liars.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);
const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
const HTML = Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>');
const dataUrl = (type: string, bytes: Buffer) => `data:${type};base64,${bytes.toString('base64')}`;

function rowCount(table: 'expenses'): Promise<number> {
  return withServerDb(server, async (db) => {
    const { n } = await db
      .selectFrom(table)
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return n;
  });
}
const receiptFiles = () => {
  const dir = path.join(server.dataDir, 'receipts');
  return fs.existsSync(dir) ? fs.readdirSync(dir, { recursive: true }).filter((f) => String(f).includes('.')).length : 0;
};

async function create(session: Session, body: Record<string, unknown>) {
  const answer = await session.rest('POST', '/api/expenses', body);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data;
}

describe('expenses (REST and tRPC)', () => {
  it('creates an expense in integer units: TTC, VAT per rate, HT and deductible part computed once; paid on its date', async () => {
    const { session } = await registered(server.url);
    const created = await session.rest('POST', '/api/expenses', {
      ...fuel,
      vat: [
        { rate: 20, amount: '10,10' },
        { rate: 5.5, amount: 0.2, deductible: false },
      ],
    });
    expect(created.status).toBe(201);
    expect(created.body.messages).toBe('Ajouté avec succès');
    expect(created.body.data).toMatchObject({
      supplier: 'TotalEnergies',
      category: 'deplacements',
      category_label: 'Déplacements et hébergement',
      category_account: '625100',
      amount: 84.6,
      vat_total: 10.3,
      deductible_vat: 10.1,
      net: 74.3,
      status: 'paid',
      paid_at: '2026-03-12',
      payment_method: 'card',
      currency: 'EUR',
      receipt: null,
      source: 'manual',
    });
    const id = created.body.data.id;
    const read = await session.rest('GET', `/api/expenses/${id}`);
    expect(read.body.vat).toEqual([
      { rate: 20, amount: 10.1, deductible: true },
      { rate: 5.5, amount: 0.2, deductible: false },
    ]);

    const updated = await session.rest('PUT', `/api/expenses/${id}`, { ...fuel, status: 'unpaid', paid_at: '2026-03-20' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ messages: 'Mis à jour avec succès', data: { status: 'unpaid', paid_at: null, vat_total: 14.1 } });

    const trpc = await session.trpc().expenses.get.query({ id });
    expect(trpc.amount).toBe(84.6);
    expect((await session.rest('DELETE', `/api/expenses/${id}`)).body).toEqual({ messages: 'Supprimé avec succès' });
    expect((await session.rest('GET', `/api/expenses/${id}`)).status).toBe(404);
  });

  it('a free-text category is added to the organisation’s list; a label is read as its code; the list is editable', async () => {
    const { session } = await registered(server.url);
    const byLabel = await create(session, { ...fuel, category: 'Repas et réceptions' });
    expect(byLabel.category).toBe('repas');
    const free = await create(session, { ...fuel, category: 'Véhicule électrique' });
    expect(free).toMatchObject({ category: 'vehicule_electrique', category_label: 'Véhicule électrique', category_account: '658000' });
    const remapped = await session.rest('POST', '/api/expenses/categories', {
      code: 'vehicule_electrique',
      label: 'Véhicule',
      account: '615500',
    });
    expect(remapped.status).toBe(200);
    expect((await session.rest('GET', `/api/expenses/${free.id}`)).body).toMatchObject({
      category_label: 'Véhicule',
      category_account: '615500',
    });
    const list = await session.rest('GET', '/api/expenses/categories');
    expect(list.body.data.map((c: { code: string }) => c.code)).toEqual(expect.arrayContaining(['achats', 'repas', 'vehicule_electrique']));
    expect((await session.rest('POST', '/api/expenses/categories', { label: 'Divers', account: '706000' })).body.messages).toMatch(
      /^Compte :/,
    );
  });

  it('categories: add, rename and re-map, archive one in use (never deleted), restore it, delete one unused; 404 for another’s', async () => {
    const { session } = await registered(server.url);
    const added = await session.rest('POST', '/api/expenses/categories', { label: 'Carburant', account: '606110' });
    expect(added.status).toBe(200);
    expect(added.body.data).toEqual({ code: 'carburant', label: 'Carburant', account: '606110', archived: false });
    const renamed = await session.rest('POST', '/api/expenses/categories', {
      code: 'carburant',
      label: 'Carburants et lubrifiants',
      account: '606120',
    });
    expect(renamed.body.data).toEqual({ code: 'carburant', label: 'Carburants et lubrifiants', account: '606120', archived: false });
    const used = await create(session, { ...fuel, category: 'carburant' });

    // In use: DELETE archives it; the expense keeps its label and account.
    const removed = await session.rest('DELETE', '/api/expenses/categories/carburant');
    expect(removed).toMatchObject({ status: 200, body: { messages: 'Catégorie archivée : elle reste sur les dépenses qui l’utilisent' } });
    const categories = async () =>
      (await session.rest('GET', '/api/expenses/categories')).body.data as { code: string; archived: boolean }[];
    expect((await categories()).find((c) => c.code === 'carburant')).toMatchObject({ archived: true });
    expect((await session.rest('GET', `/api/expenses/${used.id}`)).body).toMatchObject({
      category: 'carburant',
      category_label: 'Carburants et lubrifiants',
      category_account: '606120',
    });
    const restored = await session.rest('PUT', '/api/expenses/categories/carburant/archive', { archived: false });
    expect(restored.body).toMatchObject({ messages: 'Catégorie restaurée', data: { code: 'carburant', archived: false } });
    expect((await session.rest('PUT', '/api/expenses/categories/carburant/archive', { archived: 'oui' })).body.messages).toContain(
      'Archivée : oui ou non',
    );

    // Unused: deleted for good.
    await session.rest('POST', '/api/expenses/categories', { label: 'Péages', account: '625110' });
    expect((await session.rest('DELETE', '/api/expenses/categories/peages')).body.messages).toBe('Supprimé avec succès');
    expect((await categories()).some((c) => c.code === 'peages')).toBe(false);
    expect((await session.rest('PUT', '/api/expenses/categories/peages/archive', { archived: true })).status).toBe(404);

    const { session: other } = await registered(server.url);
    expect((await other.rest('PUT', '/api/expenses/categories/carburant/archive', { archived: true })).status).toBe(404);
    expect((await other.rest('DELETE', '/api/expenses/categories/carburant')).status).toBe(404);
  });

  it('filters by period, category, supplier, status, amount and search; sorts; paginates; sums the filtered set', async () => {
    const { session } = await registered(server.url);
    await create(session, { ...fuel, date: '2026-01-05', amount: 50, vat: [{ rate: 20, amount: '8,33' }] });
    await create(session, {
      ...fuel,
      date: '2026-02-10',
      supplier: 'Orange',
      category: 'telecom',
      label: 'Box',
      amount: 39.99,
      vat: [{ rate: 20, amount: 6.67 }],
      status: 'unpaid',
    });
    await create(session, {
      ...fuel,
      date: '2026-02-20',
      supplier: 'Boulangerie Paul',
      category: 'repas',
      amount: 12.4,
      vat: [{ rate: 10, amount: 1.13 }],
    });
    await create(session, { ...fuel, date: '2025-12-31', supplier: 'Orange', category: 'telecom', amount: 39.99, vat: [] });

    const all = await session.rest('GET', '/api/expenses?per_page=2&page=2&sort_by=amount&sort_order=asc');
    expect(all.body.total).toBe(4);
    expect(all.body.data.map((e: { amount: number }) => e.amount)).toEqual([39.99, 50]);
    expect(all.body.sums).toEqual([{ currency: 'EUR', count: 4, amount: 142.38, vat: 16.13, deductible_vat: 16.13 }]);

    const custom = await session.rest('GET', '/api/expenses?period=custom&from=2026-01-01&to=2026-02-15');
    expect(custom.body.data.map((e: { date: string }) => e.date)).toEqual(['2026-02-10', '2026-01-05']);
    expect((await session.rest('GET', '/api/expenses?category=telecom')).body.total).toBe(2);
    expect((await session.rest('GET', '/api/expenses?supplier=rang')).body.total).toBe(2);
    expect((await session.rest('GET', '/api/expenses?status=unpaid')).body.data[0].supplier).toBe('Orange');
    expect((await session.rest('GET', '/api/expenses?min_amount=20&max_amount=45')).body.sums[0]).toMatchObject({
      count: 2,
      amount: 79.98,
    });
    expect((await session.rest('GET', '/api/expenses?search=box')).body.total).toBe(1);
    expect((await session.rest('GET', '/api/expenses?search=restau')).body.total).toBe(0);
    expect((await session.rest('GET', '/api/expenses?search=réceptions')).body.total).toBe(1); // the category's label
    expect((await session.rest('GET', '/api/expenses?period=never')).body.messages).toBe('Période inconnue');

    const suggestions = await session.rest('GET', '/api/expenses/suppliers?search=or');
    expect(suggestions.body.data.map((s: { name: string }) => s.name)).toEqual(['Orange']);
  });

  it('exports the filtered set as CSV for French Excel (BOM, semicolons, decimal commas, accounts)', async () => {
    const { session } = await registered(server.url);
    await create(session, {
      ...fuel,
      supplier: 'Café « Le Zinc »; Paris',
      category: 'repas',
      amount: 1234.5,
      vat: [{ rate: 10, amount: 112.23 }],
    });
    await create(session, { ...fuel, supplier: 'Orange', category: 'telecom', date: '2025-01-01' });
    const response = await session.fetch(`${server.url}/api/expenses/export?period=custom&from=2026-01-01&to=2026-12-31`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="depenses-\d{4}-\d{2}-\d{2}\.csv"/);
    // Bytes, not text(): fetch's UTF-8 decoding would drop the BOM that makes Excel read UTF-8.
    const content = Buffer.from(await response.arrayBuffer()).toString('utf8');
    expect(content.startsWith('\uFEFF')).toBe(true);
    const [header, row, extra] = content.slice(1).split('\r\n');
    expect(header).toContain('Date;Fournisseur;SIREN fournisseur');
    expect(row).toContain('"Café « Le Zinc »; Paris"');
    expect(row).toContain(';Repas et réceptions;625700;');
    expect(row).toContain(';1122,27;112,23;112,23;1234,50;10 % : 112,23;');
    expect(extra ?? '').toBe('');
  });

  it('refuses every bad input with a French 400 naming the field, and writes nothing', async () => {
    const { session } = await registered(server.url);
    const before = await rowCount('expenses');
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ ...fuel, amount: -5 }, /^Montant TTC : il doit être positif ; .*« Avoir fournisseur »$/],
      [{ ...fuel, amount: undefined }, /^Montant TTC/],
      [{ ...fuel, amount: 'douze' }, /^Montant TTC : un nombre est attendu/],
      [{ ...fuel, amount: 10, vat: [{ rate: 20, amount: 12 }] }, /^TVA : le total de la TVA dépasse le montant TTC$/],
      [{ ...fuel, vat: [{ rate: 20, amount: -1 }] }, /^Montant de TVA : il ne peut pas être négatif ; .*« Avoir fournisseur »$/],
      [{ ...fuel, date: '2026-02-30' }, /^Date : date attendue au format AAAA-MM-JJ$/],
      [{ ...fuel, date: '12/03/2026' }, /^Date : date attendue/],
      [{ ...fuel, paid_at: '2026-13-01' }, /^Payée le : date attendue/],
      [{ ...fuel, due_date: 'demain' }, /^Échéance : date attendue/],
      [{ ...fuel, supplier: '  ' }, /^Le fournisseur est obligatoire$/],
      [{ ...fuel, payment_method: 'bitcoin' }, /^Moyen de paiement/],
      [{ ...fuel, status: 'maybe' }, /^Statut/],
      [{ ...fuel, supplier_siren: '123' }, /SIREN|SIRET/],
    ];
    for (const [body, message] of cases) {
      const answer = await session.rest('POST', '/api/expenses', body);
      expect(answer.status, JSON.stringify(body)).toBe(400);
      expect([answer.body.messages].flat().join('\n')).toMatch(message);
    }
    expect(await rowCount('expenses')).toBe(before);
  });

  it('another organisation’s expense answers 404 on every path, and is left untouched', async () => {
    const a = (await registered(server.url)).session;
    const b = (await registered(server.url)).session;
    const theirs = await create(a, fuel);
    const id = theirs.id;
    expect((await b.rest('GET', `/api/expenses/${id}`)).status).toBe(404);
    expect((await b.rest('PUT', `/api/expenses/${id}`, fuel)).status).toBe(404);
    expect((await b.rest('DELETE', `/api/expenses/${id}`)).status).toBe(404);
    expect((await b.rest('POST', `/api/expenses/${id}/receipt`, { filename: 'a.png', data_url: dataUrl('image/png', PNG) })).status).toBe(
      404,
    );
    expect((await b.rest('GET', `/api/expenses/${id}/receipt`)).status).toBe(404);
    expect((await b.rest('DELETE', `/api/expenses/${id}/receipt`)).status).toBe(404);
    expect((await b.rest('GET', '/api/expenses')).body.total).toBe(0);
    expect((await a.rest('GET', `/api/expenses/${id}`)).body).toMatchObject({ supplier: 'TotalEnergies', receipt: null });
  });
});

describe('receipts', () => {
  it('keeps a PDF or an image under the data directory and serves it inline, in its real type, nosniff', async () => {
    const { session } = await registered(server.url);
    const expense = await create(session, fuel);
    const attached = await session.rest('POST', `/api/expenses/${expense.id}/receipt`, {
      filename: 'ticket.png',
      data_url: dataUrl('image/png', PNG),
    });
    expect(attached.status).toBe(200);
    expect(attached.body.data.receipt).toEqual({ filename: 'ticket.png', content_type: 'image/png', size: PNG.length });
    const shown = await session.fetch(`${server.url}/api/expenses/${expense.id}/receipt`);
    expect(shown.status).toBe(200);
    expect(shown.headers.get('content-type')).toBe('image/png');
    expect(shown.headers.get('content-disposition')).toMatch(/^inline; filename="ticket.png"/);
    expect(shown.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await shown.arrayBuffer()).equals(PNG)).toBe(true);

    // Replaced by a PDF: the PNG's file goes, one file stays.
    const files = receiptFiles();
    const pdf = await session.rest('POST', `/api/expenses/${expense.id}/receipt`, {
      filename: 'Facture n°12.pdf',
      data_url: dataUrl('application/pdf', PDF),
    });
    expect(pdf.body.data.receipt.content_type).toBe('application/pdf');
    expect(receiptFiles()).toBe(files);
    const pdfShown = await session.fetch(`${server.url}/api/expenses/${expense.id}/receipt`);
    expect(pdfShown.headers.get('content-type')).toBe('application/pdf');
    expect(pdfShown.headers.get('content-disposition')).toContain("filename*=UTF-8''Facture%20n%C2%B012.pdf");

    expect((await session.rest('DELETE', `/api/expenses/${expense.id}`)).status).toBe(200);
    expect(receiptFiles()).toBe(files - 1);
  });

  it('refuses an SVG, an HTML page renamed .pdf, a PNG named .pdf, a 20 MB file: 400 naming the receipt, nothing written', async () => {
    const { session } = await registered(server.url);
    const expense = await create(session, fuel);
    const files = receiptFiles();
    const big = Buffer.concat([PDF, Buffer.alloc(20 * 1024 * 1024)]);
    const cases: [Record<string, unknown>, RegExp][] = [
      [
        { filename: 'logo.svg', data_url: dataUrl('image/svg+xml', SVG) },
        /^Justificatif : seuls les PDF, PNG, JPEG et WebP sont acceptés$/,
      ],
      [
        { filename: 'facture.pdf', data_url: dataUrl('application/pdf', HTML) },
        /^Justificatif : « facture.pdf » n’est pas un vrai fichier PDF/,
      ],
      [
        { filename: 'facture.pdf', data_url: dataUrl('application/pdf', PNG) },
        /^Justificatif : « facture.pdf » est en réalité un fichier PNG/,
      ],
      [{ filename: 'scan', data_url: dataUrl('image/jpeg', PNG) }, /^Justificatif : le fichier se dit image\/jpeg mais c’est un PNG$/],
      [{ filename: 'gros.pdf', data_url: dataUrl('application/pdf', big) }, /^Justificatif : 10 Mo au plus \(ce fichier fait 20,0 Mo\)$/],
      [{ filename: 'vide.pdf', data_url: 'pas une data URL' }, /^Justificatif : contenu attendu en data URL base64$/],
    ];
    for (const [body, message] of cases) {
      const answer = await session.rest('POST', `/api/expenses/${expense.id}/receipt`, body);
      expect(answer.status, String(body.filename)).toBe(400);
      expect(answer.body.messages).toMatch(message);
    }
    expect(receiptFiles()).toBe(files);
    expect((await session.rest('GET', `/api/expenses/${expense.id}`)).body.receipt).toBeNull();
    expect((await session.rest('GET', `/api/expenses/${expense.id}/receipt`)).body.messages).toBe('Cette dépense n’a pas de justificatif');
  });
});

describe('figures for the reports', () => {
  it('expenses per month and deductible VAT per rate, by expense date', async () => {
    const { session } = await registered(server.url);
    await create(session, { ...fuel, date: '2026-01-05', amount: 120, vat: [{ rate: 20, amount: 20 }] });
    await create(session, { ...fuel, date: '2026-01-25', amount: 110, vat: [{ rate: 10, amount: 10 }] });
    await create(session, { ...fuel, date: '2026-02-03', amount: 60, vat: [{ rate: 20, amount: 10, deductible: false }] });
    await create(session, { ...fuel, date: '2026-04-01', amount: 999, vat: [{ rate: 20, amount: 100 }] });
    const figures = await session.rest('GET', '/api/expenses/figures?from=2026-01-01&to=2026-03-31');
    expect(figures.status).toBe(200);
    expect(figures.body).toEqual({
      months: [
        { month: '2026-01', currency: 'EUR', count: 2, amount: 230, net: 200, vat: 30, deductible_vat: 30 },
        { month: '2026-02', currency: 'EUR', count: 1, amount: 60, net: 50, vat: 10, deductible_vat: 0 },
      ],
      deductible: [
        { rate: 20, base: 100, amount: 20 },
        { rate: 10, base: 100, amount: 10 },
      ],
    });
    expect((await session.rest('GET', '/api/expenses/figures?from=2026-01-01')).body.messages).toMatch(/^Au/);
  });
});
