import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, type App } from '../../src/server/app';
import { testEnv } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { issued, line, readyToInvoice, sellerIdentity } from '../helpers/documents';
import { pollAllPlatforms } from '../../src/server/services/einvoice-send';
import { archivedPdf } from '../../src/server/services/pdf-archive';
import { findDocument } from '../../src/server/db/queries/documents';

const fixtureXml = fs.readFileSync(path.join(__dirname, '../fixtures/einvoice/cii/CII_example1.xml'), 'utf8');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

let app: App;
let url: string;
let dataDir: string;
beforeAll(async () => {
  const made = testEnv();
  dataDir = made.dataDir;
  // The XML provider the lead wires to buildEinvoiceXml; here the official sample stands for it.
  app = await createApp(made.env, { archiveOnIssue: false, einvoiceXml: async () => fixtureXml });
  url = await app.listen();
});
afterAll(async () => {
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function invoiceOf(session: Session, extra: Record<string, unknown> = {}) {
  const { customerId } = await readyToInvoice(session);
  return issued(session, { customer_id: customerId, items: [line('Conseil', 2, 400)], ...extra });
}
const lifecycle = async (session: Session, id: number) => (await session.rest('GET', `/api/documents/${id}/lifecycle`)).body;
const statuses = async (session: Session, id: number) =>
  ((await lifecycle(session, id)).data as { status: string; source: string }[]).map((e) => `${e.status}:${e.source}`);
/**
 * Keeps the invoice's PDF through the real archive, as issue or first download would, with bytes of our own: printing
 * it takes Chromium and the built client, which the browser tests cover (tests/e2e/pdf-archive.test.ts).
 */
const orgOf = async (documentId: number) =>
  (await app.deps.db.selectFrom('documents').select('organization_id').where('id', '=', documentId).executeTakeFirstOrThrow())
    .organization_id;
async function archive(invoice: { id: number }): Promise<Buffer> {
  const doc = await findDocument(app.deps.db, { organizationId: await orgOf(invoice.id), id: invoice.id });
  if (!doc) throw new Error('document missing');
  const bytes = Buffer.from(`%PDF-1.7\n% archived ${doc.number}\n%%EOF\n`);
  return archivedPdf(app.deps.db, dataDir, doc, async () => bytes);
}
const inbox = (organizationId: number) => path.join(dataDir, 'platform', 'inbox', String(organizationId));
const drop = (organizationId: number, name: string, update: unknown) => {
  fs.mkdirSync(inbox(organizationId), { recursive: true });
  fs.writeFileSync(path.join(inbox(organizationId), name), JSON.stringify(update));
};

describe('lifecycle statuses', () => {
  it('a refusal by the customer is recorded with its reason and date, logged, and the invoice can no longer be cashed', async () => {
    const { session } = await registered(url);
    const invoice = await invoiceOf(session);
    const refused = await session.rest('POST', `/api/documents/${invoice.id}/lifecycle`, {
      status: 'refused',
      reason: 'Prestation non conforme au devis',
      date: '2026-11-03',
    });
    expect(refused.status).toBe(201);
    expect(refused.body.messages).toBe('Statut enregistré');
    expect(refused.body.data.data).toMatchObject([
      { status: 'refused', code: 210, label: 'Refusée', date: '2026-11-03', reason: 'Prestation non conforme au devis', source: 'user' },
    ]);

    const cashed = await session.rest('POST', `/api/documents/${invoice.id}/lifecycle`, { status: 'cashed' });
    expect(cashed).toMatchObject({ status: 409, body: { messages: 'Une facture refusée par le client ne peut pas être encaissée' } });
    // Paying it is still possible (money came in), but Encaissée does not follow a refusal.
    expect((await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-04', amount: 960 })).status).toBe(201);
    expect(await statuses(session, invoice.id)).toEqual(['refused:user']);

    const log = (await session.rest('GET', '/api/audit')).body.data as { event: string; content: { lifecycle?: unknown } }[];
    const entry = log.find((e) => e.event === 'einvoice_status');
    expect(entry?.content.lifecycle).toEqual({
      status: 'refused',
      code: 210,
      date: '2026-11-03',
      source: 'user',
      reason: 'Prestation non conforme au devis',
    });
    expect((await session.rest('GET', '/api/audit/verify')).body.ok).toBe(true);
  });

  it('a services invoice becomes Encaissée when fully paid, and the Encaissée is withdrawn when the payment is reversed', async () => {
    const { session } = await registered(url);
    const invoice = await invoiceOf(session);
    const first = await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-05', amount: 500 });
    expect(await statuses(session, invoice.id)).toEqual([]);
    await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-09', amount: 460 });
    const after = (await lifecycle(session, invoice.id)).data;
    expect(after).toMatchObject([
      { status: 'cashed', code: 212, label: 'Encaissée', date: '2026-11-09', source: 'automatic', amount: 960 },
    ]);

    expect((await session.rest('DELETE', `/api/documents/${invoice.id}/payments/${first.body.data.id}`)).status).toBe(200);
    const withdrawn = (await lifecycle(session, invoice.id)).data;
    expect(withdrawn.map((e: { status: string }) => e.status)).toEqual(['cashed', 'cash_withdrawn']);
    expect(withdrawn[1]).toMatchObject({ label: 'Encaissement annulé', source: 'automatic', code: null });

    // Paid again in full: Encaissée again.
    await session.rest('POST', `/api/documents/${invoice.id}/payments`, { date: '2026-11-10', amount: 500 });
    expect(await statuses(session, invoice.id)).toEqual(['cashed:automatic', 'cash_withdrawn:automatic', 'cashed:automatic']);
    const events = ((await session.rest('GET', '/api/audit?per_page=100')).body.data as { event: string }[]).map((e) => e.event);
    expect(events.filter((e) => e === 'einvoice_status')).toHaveLength(3);
  });

  it('a goods invoice is not cashed automatically (its VAT is due on delivery), nor a seller who opted for débits', async () => {
    const { session } = await registered(url);
    const goods = await invoiceOf(session, { items: [line('Chaise', 1, 100, 20, { kind: 'goods' })] });
    await session.rest('POST', `/api/documents/${goods.id}/payments`, { date: '2026-11-05', amount: 120 });
    expect(await statuses(session, goods.id)).toEqual([]);

    const onDebits = (await registered(url)).session;
    await readyToInvoice(onDebits);
    expect((await onDebits.rest('PUT', '/api/organization', { ...sellerIdentity, vat_on_debits: true })).status).toBe(200);
    const customerId = (await onDebits.rest('GET', '/api/customers')).body.data[0].id;
    const services = await issued(onDebits, { customer_id: customerId, items: [line('Conseil', 1, 100)] });
    await onDebits.rest('POST', `/api/documents/${services.id}/payments`, { date: '2026-11-05', amount: 120 });
    expect(await statuses(onDebits, services.id)).toEqual([]);
  });

  it('bad input answers French 400s; another organisation’s document answers 404; a draft or an estimate has no lifecycle', async () => {
    const { session } = await registered(url);
    const invoice = await invoiceOf(session);
    const noReason = await session.rest('POST', `/api/documents/${invoice.id}/lifecycle`, { status: 'refused' });
    expect(noReason).toMatchObject({ status: 400, body: { messages: 'Motif : obligatoire pour le statut « Refusée »' } });
    const unknown = await session.rest('POST', `/api/documents/${invoice.id}/lifecycle`, { status: 'perdue' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.messages).toBe('Statut : déposée, rejetée, refusée, en litige, approuvée, encaissée');
    const badDate = await session.rest('POST', `/api/documents/${invoice.id}/lifecycle`, { status: 'deposited', date: '3 nov.' });
    expect(badDate).toMatchObject({ status: 400, body: { messages: 'Date attendue au format AAAA-MM-JJ' } });
    const future = await session.rest('POST', `/api/documents/${invoice.id}/lifecycle`, { status: 'deposited', date: '2999-01-01' });
    expect(future).toMatchObject({ status: 400, body: { messages: 'Date : un statut ne se déclare pas à une date future' } });
    const badSiren = await session.rest('GET', '/api/einvoice/directory/12345');
    expect(badSiren).toMatchObject({ status: 400, body: { messages: 'SIREN : 9 chiffres attendus' } });

    const estimate = (await session.rest('POST', '/api/documents', { type: 'estimate', date: '2026-11-02', items: [line('X', 1, 1)] })).body
      .data;
    const onEstimate = await session.rest('POST', `/api/documents/${estimate.id}/lifecycle`, { status: 'deposited' });
    expect(onEstimate).toMatchObject({
      status: 409,
      body: { messages: 'Seules les factures et les avoirs ont un cycle de vie de facture électronique' },
    });

    const other = (await registered(url)).session;
    for (const [method, p] of [
      ['GET', `/api/documents/${invoice.id}/lifecycle`],
      ['POST', `/api/documents/${invoice.id}/lifecycle`],
      ['POST', `/api/documents/${invoice.id}/einvoice/send`],
    ] as const) {
      const answer = await other.rest(method, p, method === 'POST' ? { status: 'deposited' } : undefined);
      expect(answer, `${method} ${p}`).toMatchObject({ status: 404, body: { messages: 'Document introuvable' } });
    }
  });
});

describe('the folder outbox (platform connector)', () => {
  it('sends nothing while the organisation chose « Aucune », and says so', async () => {
    const { session } = await registered(url);
    const invoice = await invoiceOf(session);
    await archive(invoice);
    const saved = await session.rest('PUT', '/api/settings/einvoicing', { mode: 'none', pa_matricule: '0042', syntax: 'factur-x' });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const sent = await session.rest('POST', `/api/documents/${invoice.id}/einvoice/send`);
    expect(sent).toMatchObject({
      status: 409,
      body: { messages: 'La facturation électronique est désactivée pour votre entreprise (Paramètres → Facturation électronique)' },
    });
    expect(fs.existsSync(path.join(dataDir, 'platform', 'outbox', String(await orgOf(invoice.id)), invoice.uuid))).toBe(false);
    await session.rest('PUT', '/api/settings/einvoicing', { mode: 'folder', pa_matricule: '', syntax: 'factur-x' });
    expect((await session.rest('POST', `/api/documents/${invoice.id}/einvoice/send`)).status).toBe(200);
  });

  it('sends the archived PDF, the XML and an envelope once; the inbox brings back Déposée then Refusée', async () => {
    const { session } = await registered(url);
    const invoice = await invoiceOf(session);
    const kept = await archive(invoice);
    const sent = await session.rest('POST', `/api/documents/${invoice.id}/einvoice/send`);
    expect(sent.status).toBe(200);
    expect(sent.body.messages).toBe(`Facture déposée sur la plateforme (réf. ${invoice.uuid})`);
    expect(sent.body.data.submission).toMatchObject({
      platform: 'dossier',
      reference: invoice.uuid,
      format: 'factur-x',
      xml_attached: true,
    });

    const orgId = await orgOf(invoice.id);
    const folder = path.join(dataDir, 'platform', 'outbox', String(orgId), invoice.uuid);
    expect(fs.readdirSync(folder).sort()).toEqual(['Facture-F2026-0001.pdf', 'envelope.json', 'factur-x.xml']);
    const pdf = fs.readFileSync(path.join(folder, 'Facture-F2026-0001.pdf'));
    // The archived PDF, byte for byte: the same bytes the download serves.
    const download = Buffer.from(await (await fetch(`${url}/documents/download/${invoice.uuid}`)).arrayBuffer());
    expect(pdf.equals(download)).toBe(true);
    expect(pdf.equals(kept)).toBe(true);
    expect(fs.readFileSync(path.join(folder, 'factur-x.xml'), 'utf8')).toBe(fixtureXml);
    const envelope = JSON.parse(fs.readFileSync(path.join(folder, 'envelope.json'), 'utf8'));
    expect(envelope).toMatchObject({
      version: 1,
      reference: invoice.uuid,
      document: { uuid: invoice.uuid, type: 'invoice', type_code: 380, number: 'F2026-0001', date: '2026-11-02' },
      sender: { siren: '552032534', name: 'Atelier Fontaine', vat_number: 'FR27552032534' },
      recipient: { siren: '732829320', name: 'Boulangerie Martin' },
      totals: { net: 800, tax: 160, total: 960, currency: 'EUR' },
      format: 'factur-x',
      xml_attached: true,
      files: [
        { name: 'Facture-F2026-0001.pdf', role: 'invoice', sha256: sha256(pdf), size: pdf.length },
        { name: 'factur-x.xml', role: 'xml', sha256: sha256(Buffer.from(fixtureXml)), size: Buffer.byteLength(fixtureXml) },
      ],
    });
    expect(fs.readdirSync(path.dirname(folder)).filter((n) => n.startsWith('.tmp'))).toEqual([]);

    // Twice: nothing sent again, the same reference answered, one audit entry.
    const modified = fs.statSync(path.join(folder, 'envelope.json')).mtimeMs;
    const again = await session.rest('POST', `/api/documents/${invoice.id}/einvoice/send`);
    expect(again).toMatchObject({ status: 200, body: { messages: `Déjà déposé sur la plateforme (réf. ${invoice.uuid})` } });
    expect(fs.statSync(path.join(folder, 'envelope.json')).mtimeMs).toBe(modified);
    const log = (await session.rest('GET', '/api/audit?per_page=100')).body.data as {
      event: string;
      content: { submission?: { files: unknown[] } };
    }[];
    const sends = log.filter((e) => e.event === 'einvoice_send');
    expect(sends).toHaveLength(1);
    expect(sends[0]?.content.submission?.files[0]).toEqual({ name: 'Facture-F2026-0001.pdf', sha256: sha256(pdf) });

    // The platform answers through the inbox: Déposée (by code), then the customer's refusal (by key), plus noise.
    drop(orgId, '001-deposee.json', { reference: invoice.uuid, code: 200, date: '2026-11-03' });
    drop(orgId, '002-refusee.json', { reference: invoice.uuid, status: 'refused', date: '2026-11-06', reason: 'Montant contesté' });
    drop(orgId, '003-other.json', { reference: 'another-invoice', status: 'rejected', date: '2026-11-06' });
    drop(orgId, '004-broken.json', { reference: invoice.uuid, status: 'perdue', date: '2026-11-06' });
    const polled = await session.rest('POST', '/api/einvoice/poll');
    expect(polled).toMatchObject({ status: 200, body: { messages: '2 statuts relevés', data: { recorded: 2, refused: 0 } } });
    expect((await lifecycle(session, invoice.id)).data).toMatchObject([
      { status: 'deposited', label: 'Déposée', date: '2026-11-03', source: 'platform' },
      { status: 'refused', label: 'Refusée', date: '2026-11-06', reason: 'Montant contesté', source: 'platform' },
    ]);
    // Polling again records nothing twice; an update that cannot follow (cashed after a refusal) is refused and kept out.
    drop(orgId, '005-encaissee.json', { reference: invoice.uuid, code: 212, date: '2026-11-07' });
    expect((await session.rest('POST', '/api/einvoice/poll')).body.data).toEqual({ recorded: 0, refused: 1 });
    expect(await statuses(session, invoice.id)).toEqual(['deposited:platform', 'refused:platform']);
  });

  it('the platform’s rejection comes back as Rejetée; the scheduler’s poll visits every organisation', async () => {
    const { session } = await registered(url);
    const invoice = await invoiceOf(session);
    await archive(invoice);
    expect((await session.rest('POST', `/api/documents/${invoice.id}/einvoice/send`)).status).toBe(200);
    drop(await orgOf(invoice.id), 'rejet.json', {
      reference: invoice.uuid,
      code: 213,
      date: '2026-11-03',
      reason: 'SIREN du client inconnu',
    });
    const report = await pollAllPlatforms(app.deps.db, app.deps.einvoice.connector);
    expect(report.recorded).toBeGreaterThanOrEqual(1);
    expect((await lifecycle(session, invoice.id)).data).toMatchObject([
      { status: 'rejected', code: 213, label: 'Rejetée', reason: 'SIREN du client inconnu', source: 'platform' },
    ]);
  });

  it('a customer without SIREN is not sent (e-reporting), and the directory lookup answers or 404s', async () => {
    const { session } = await registered(url);
    await readyToInvoice(session);
    const person = (
      await session.rest('POST', '/api/customers', {
        name: 'Jeanne Petit',
        type: 'individual',
        address: { line1: '1 rue A', postal_code: '75001', city: 'Paris' },
      })
    ).body.data;
    const invoice = await issued(session, { customer_id: person.id, items: [line('Cours', 1, 50)] });
    const refused = await session.rest('POST', `/api/documents/${invoice.id}/einvoice/send`);
    expect(refused.status).toBe(409);
    expect(refused.body.messages).toMatch(/^Ce client n’a pas de SIREN : une vente à un particulier/);
    expect(fs.existsSync(path.join(dataDir, 'platform', 'outbox', String(await orgOf(invoice.id))))).toBe(false);

    const notListed = await session.rest('GET', '/api/einvoice/directory/732829320');
    expect(notListed).toMatchObject({
      status: 404,
      body: { messages: 'Le SIREN 732829320 n’est pas inscrit à l’annuaire de la facturation électronique' },
    });
    fs.mkdirSync(path.join(dataDir, 'platform', 'directory'), { recursive: true });
    const entry = { siren: '732829320', name: 'Boulangerie Martin', platform: 'PA Exemple', routing_id: '732829320_FACTURES' };
    fs.writeFileSync(path.join(dataDir, 'platform', 'directory', '732829320.json'), JSON.stringify(entry));
    expect(await session.rest('GET', '/api/einvoice/directory/732 829 320')).toMatchObject({ status: 200, body: entry });
  });
});

describe('with the XML provider turned off (einvoiceXml: null)', () => {
  it('sending is refused with a French message and writes nothing', async () => {
    const made = testEnv();
    const bare = await createApp(made.env, { archiveOnIssue: false, einvoiceXml: null });
    const bareUrl = await bare.listen();
    try {
      const { session } = await registered(bareUrl);
      const invoice = await invoiceOf(session);
      const answer = await session.rest('POST', `/api/documents/${invoice.id}/einvoice/send`);
      expect(answer).toMatchObject({
        status: 409,
        body: { messages: 'Ce serveur ne produit pas le XML Factur-X (EN 16931) : le dépôt sur la plateforme est impossible' },
      });
      expect(fs.existsSync(path.join(made.dataDir, 'platform'))).toBe(false);
    } finally {
      await bare.close();
      fs.rmSync(made.dataDir, { recursive: true, force: true });
    }
  });
});
