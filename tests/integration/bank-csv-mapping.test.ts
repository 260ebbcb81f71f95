import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { base64, camt053 } from '../helpers/bank-statements';

const IBAN = 'FR7630001007941234567890185';

// As a big French bank exports it: account lines above the header, Windows-1252, « Montant » with a decimal comma,
// a detail column the guess does not append to the label unless told.
const BANK_CSV = [
  'Compte courant n° 12345678901;;;;',
  'Solde au 30/11/2026;;;2 120,40;',
  '',
  'Date opération;Date valeur;Libellé;Montant;Référence',
  '02/11/2026;03/11/2026;VIR M. DUPONT;1 250,00;LOYER NOV',
  '05/11/2026;05/11/2026;CB CAFÉ DE LA GARE;-3,50;CARTE 1234',
  '06/11/2026;06/11/2026;PRLV EDF;-42,10;FACTURE 778',
].join('\r\n');

async function account(session: Session) {
  const answer = await session.rest('POST', '/api/bank-accounts', { name: 'Compte courant', iban: IBAN });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.data.id as number;
}

const importFile = (session: Session, id: number, text: string, extra: Record<string, unknown> = {}, filename = 'export.csv') =>
  session.rest('POST', `/api/bank-accounts/${id}/import`, { filename, content_base64: base64(text, 'latin1'), ...extra });

const transactions = async (session: Session, id: number) =>
  (await session.rest('GET', `/api/bank-transactions?account_id=${id}&per_page=100`)).body.data as {
    date: string;
    amount: number;
    label: string;
  }[];

describe('the columns of a bank CSV, confirmed once per account', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('answers the guessed columns and a preview, imports nothing; the confirmed (corrected) columns import and are remembered', async () => {
    const { session } = await registered(server.url);
    const id = await account(session);

    const guessed = await importFile(session, id, BANK_CSV, { csv_preview: true });
    expect(guessed.status, JSON.stringify(guessed.body)).toBe(200);
    expect(guessed.body.messages).toBe('Confirmez les colonnes du relevé : rien n’est importé avant');
    const preview = guessed.body.data.csv_preview;
    expect(guessed.body.data).toMatchObject({ imported: 0, csv_mapping_required: true, format: 'csv' });
    expect(preview.header).toEqual(['Date opération', 'Date valeur', 'Libellé', 'Montant', 'Référence']);
    expect(preview.mapping).toEqual({
      date: 0,
      value_date: 1,
      label: 2,
      details: [],
      amount: 3,
      debit: null,
      credit: null,
      date_format: 'DD/MM/YYYY',
      decimal_separator: ',',
      encoding: 'windows-1252',
    });
    expect(preview.lines).toBe(3);
    expect(preview.rows[1]).toEqual({
      line: 6,
      cells: ['05/11/2026', '05/11/2026', 'CB CAFÉ DE LA GARE', '-3,50', 'CARTE 1234'],
      date: '2026-11-05',
      amount: -3.5,
      label: 'CB CAFÉ DE LA GARE',
      problem: null,
    });
    expect(await transactions(session, id)).toEqual([]);

    // The user adds the reference column to the label.
    const confirmed = await importFile(session, id, BANK_CSV, { csv_mapping: { ...preview.mapping, details: [4] } });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201);
    expect(confirmed.body.data).toMatchObject({ imported: 3, duplicates: 0, rejected: [], format: 'csv' });
    expect(confirmed.body.data.csv_mapping_required).toBeUndefined();
    expect((await transactions(session, id)).map((t) => [t.date, t.amount, t.label]).sort()).toEqual(
      [
        ['2026-11-02', 1250, 'VIR M. DUPONT LOYER NOV'],
        ['2026-11-05', -3.5, 'CB CAFÉ DE LA GARE CARTE 1234'],
        ['2026-11-06', -42.1, 'PRLV EDF FACTURE 778'],
      ].sort(),
    );

    // The next statement of the account is read with the remembered columns, without asking.
    const december = BANK_CSV.replace(
      '06/11/2026;06/11/2026;PRLV EDF;-42,10;FACTURE 778',
      '01/12/2026;01/12/2026;PRLV EDF;-39,90;FACTURE 812',
    );
    const next = await importFile(session, id, december);
    expect(next.status, JSON.stringify(next.body)).toBe(201);
    expect(next.body.data).toMatchObject({ imported: 1, duplicates: 2 });
    expect((await transactions(session, id)).find((t) => t.date === '2026-12-01')?.label).toBe('PRLV EDF FACTURE 812');
  });

  it('refuses a mapping that does not read the file, naming the column and the line, and writes nothing', async () => {
    const { session } = await registered(server.url);
    const id = await account(session);
    const { mapping } = (await importFile(session, id, BANK_CSV, { csv_preview: true })).body.data.csv_preview;

    const labelAsDate = await importFile(session, id, BANK_CSV, { csv_mapping: { ...mapping, date: 2, label: 0 } });
    expect(labelAsDate.status).toBe(400);
    expect(labelAsDate.body.messages).toBe(
      'Ligne 5, colonne 3 « Libellé » choisie comme date : « VIR M. DUPONT » n’est pas une date JJ/MM/AAAA : vérifiez les colonnes du relevé',
    );

    const wrongFormat = await importFile(session, id, BANK_CSV, { csv_mapping: { ...mapping, date_format: 'YYYY-MM-DD' } });
    expect(wrongFormat.status).toBe(400);
    expect(String(wrongFormat.body.messages)).toMatch(
      /^Ligne 5, colonne 1 « Date opération » choisie comme date : « 02\/11\/2026 » n’est pas une date AAAA-MM-JJ/,
    );

    const labelAsAmount = await importFile(session, id, BANK_CSV, { csv_mapping: { ...mapping, amount: 2, label: 3 } });
    expect(labelAsAmount.status).toBe(400);
    expect(String(labelAsAmount.body.messages)).toMatch(
      /^Ligne 5, colonne 3 « Libellé » choisie comme montant : « VIR M. DUPONT » n’est pas un montant/,
    );

    const missing = await importFile(session, id, BANK_CSV, { csv_mapping: { ...mapping, amount: 7 } });
    expect(missing.status).toBe(400);
    expect(missing.body.messages).toBe(
      'Colonnes du relevé : la colonne 8 choisie pour « montant » n’existe pas, le fichier n’a que 5 colonnes (Date opération ; Date valeur ; Libellé ; Montant ; Référence)',
    );

    const noAmount = await importFile(session, id, BANK_CSV, { csv_mapping: { ...mapping, amount: null } });
    expect(noAmount.status).toBe(400);
    expect(String(noAmount.body.messages)).toMatch(/il faut une colonne Montant, ou une colonne Débit et une colonne Crédit/);

    expect(await transactions(session, id)).toEqual([]);
    // Nothing remembered either: the next upload asking for a preview still asks.
    const again = await importFile(session, id, BANK_CSV, { csv_preview: true });
    expect(again.status).toBe(200);
    expect(again.body.data.csv_mapping_required).toBe(true);
  });

  it('imports in one call without a preview (the call confirms the guess), and a later line the columns cannot read is listed, the others kept', async () => {
    const { session } = await registered(server.url);
    const id = await account(session);
    const withFooter = `${BANK_CSV}\r\n31/11/2026;;DATE IMPOSSIBLE;-1,00;\r\nTotal des opérations;;;1 204,40;`;
    const once = await importFile(session, id, withFooter);
    expect(once.status, JSON.stringify(once.body)).toBe(201);
    expect(once.body.data).toMatchObject({
      imported: 3,
      rejected: [
        { line: 8, reason: 'Date illisible (« 31/11/2026 »)' },
        { line: 9, reason: 'Date illisible (« Total des opérations »)' },
      ],
    });
    // Remembered: no question the next time.
    const twice = await importFile(session, id, withFooter);
    expect(twice.status).toBe(201);
    expect(twice.body.data).toMatchObject({ imported: 0, duplicates: 3 });
  });

  it('asks again when the bank changed its export and a remembered column is gone', async () => {
    const { session } = await registered(server.url);
    const id = await account(session);
    expect((await importFile(session, id, BANK_CSV)).status).toBe(201);
    // A file with fewer columns than the remembered mapping names: the screen has the user confirm new columns…
    const threeColumns = 'Date;Libellé;Montant\r\n10/12/2026;VIR X;10,00';
    const reasked = await importFile(session, id, threeColumns, { csv_preview: true });
    expect(reasked.status).toBe(200);
    expect(reasked.body.data.csv_preview.mapping).toMatchObject({ date: 0, label: 1, amount: 2 });
    // …and a call without a preview takes the new guess.
    const taken = await importFile(session, id, threeColumns);
    expect(taken.status, JSON.stringify(taken.body)).toBe(201);
    expect(taken.body.data).toMatchObject({ imported: 1, format: 'csv' });
  });

  it('leaves a camt.053 as it was: one call, 201, the same answer', async () => {
    const { session } = await registered(server.url);
    const id = await account(session);
    const xml = camt053(IBAN, [{ date: '2026-11-02', amount: '120.00', label: 'VIR CLIENT', bankId: 'B-1' }]);
    const answer = await session.rest('POST', `/api/bank-accounts/${id}/import`, { filename: 'releve.xml', content_base64: base64(xml) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(answer.body.data).toEqual({ imported: 1, duplicates: 0, matched: 0, suggestions: 0, rejected: [], format: 'camt.053' });
  });

  it('documents the mapping in the OpenAPI document: its input and the 200 answer that imports nothing', async () => {
    const { session } = await registered(server.url);
    const document = (await session.rest('GET', '/api/openapi.json')).body;
    const operation = document.paths['/api/bank-accounts/{id}/import'].post;
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '201']));
    const text = JSON.stringify(document);
    expect(text).toContain('csv_preview');
    expect(text).toContain('decimal_separator');
    expect(text).toContain('csv_mapping_required');
  });
});
