import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { draft, issued, line, owedStatus, readyToInvoice } from '../helpers/documents';
import { startSmtpServer } from '../helpers/smtp';
import { logger } from '../../src/server/logger';

let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let server: TestServer;
let quiet: TestServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startTestServer({ env: { SMTP_URL: `smtp://127.0.0.1:${smtp.port}` } });
  quiet = await startTestServer(); // no SMTP at all
});
afterAll(async () => {
  await Promise.all([server.close(), quiet.close()]);
  await smtp.close();
});

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0 Safari/537.36';

/** The customer's side: no session, a browser's User-Agent. */
async function answer(base: string, uuid: string, action: 'accept' | 'refuse', body: unknown) {
  const response = await fetch(`${base}/api/share/${uuid}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': BROWSER },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function estimate(session: Session, extra: Record<string, unknown> = {}) {
  const { customerId } = await readyToInvoice(session);
  return issued(session, {
    type: 'estimate',
    customer_id: customerId,
    maturity: '2026-12-31',
    items: [line('Rénovation', 1, 1500)],
    ...extra,
  });
}

const statusOf = async (session: Session, id: number) => (await session.rest('GET', `/api/documents/${id}`)).body.status;
const responseOf = async (session: Session, id: number) => (await session.rest('GET', `/api/documents/${id}/response`)).body.data;

describe('POST /api/share/{uuid}/accept', () => {
  it('accepts a pending estimate: status accepted, name, time, IP and user agent kept, the owner told by e-mail, conversion offered', async () => {
    const { session, profile } = await registered(server.url);
    const doc = await estimate(session);
    expect(doc.status).toBe('pending');
    const before = new Date().toISOString();
    const accepted = await answer(server.url, doc.uuid, 'accept', { name: 'Paul Martin', bon_pour_accord: true });
    expect(accepted).toEqual({
      status: 200,
      body: { messages: `Devis ${doc.number} accepté : merci Paul Martin, votre accord est enregistré et transmis à Atelier Fontaine.` },
    });
    expect(await statusOf(session, doc.id)).toBe('accepted');
    const response = await responseOf(session, doc.id);
    expect(response).toMatchObject({ decision: 'accepted', name: 'Paul Martin', reason: '', ip: '127.0.0.1', user_agent: BROWSER });
    expect(response.created_at >= before).toBe(true);

    const notice = await smtp.waitFor(
      (m) => m.to.includes(profile.email) && m.mail.subject === `Devis ${doc.number} accepté par Boulangerie Martin`,
    );
    expect(notice.mail.text).toContain(`Paul Martin (Boulangerie Martin) a accepté en ligne le devis ${doc.number}, « Bon pour accord »`);
    expect(notice.mail.text).toContain(`/estimates/${doc.id}/view`);
    // What the owner needs at a glance: which estimate, whose, how much.
    expect(notice.mail.text).toMatch(
      new RegExp(`Devis\u00a0: ${doc.number}\\nClient\u00a0: Boulangerie Martin\\nMontant\u00a0: 1\\s?800,00\\s€\\n`),
    );
    expect(notice.mail.text).not.toContain('Motif');

    // The organisation converts it, as the Aperçu offers.
    const converted = await session.rest('POST', `/api/documents/${doc.id}/convert`, { type: 'invoice' });
    expect(converted.status).toBe(201);
    expect(converted.body.data).toMatchObject({ type: 'invoice', status: 'draft', origin: { id: doc.id } });
  });

  it('refuses a second answer with a 409 that says who accepted and when, and records nothing more', async () => {
    const { session } = await registered(server.url);
    const doc = await estimate(session);
    expect((await answer(server.url, doc.uuid, 'accept', { name: 'Paul Martin', bon_pour_accord: true })).status).toBe(200);
    const again = await answer(server.url, doc.uuid, 'accept', { name: 'Quelqu’un d’autre', bon_pour_accord: true });
    expect(again.status).toBe(409);
    expect(again.body.messages).toMatch(/^Ce devis a déjà été accepté le \d{2}\/\d{2}\/\d{4} à \d{2}:\d{2} par Paul Martin$/);
    const refused = await answer(server.url, doc.uuid, 'refuse', { reason: 'Trop cher' });
    expect(refused.status).toBe(409);
    expect(await statusOf(session, doc.id)).toBe('accepted');
    expect((await responseOf(session, doc.id)).name).toBe('Paul Martin');
    const rows = await server.app.connection.db.selectFrom('quote_responses').selectAll().where('document_id', '=', doc.id).execute();
    expect(rows).toHaveLength(1);
  });

  it('two answers at once: exactly one is recorded, the other is a 409', async () => {
    const { session } = await registered(server.url);
    const doc = await estimate(session);
    const results = await Promise.all([
      answer(server.url, doc.uuid, 'accept', { name: 'Paul Martin', bon_pour_accord: true }),
      answer(server.url, doc.uuid, 'refuse', { reason: 'Finalement non' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const rows = await server.app.connection.db.selectFrom('quote_responses').selectAll().where('document_id', '=', doc.id).execute();
    expect(rows).toHaveLength(1);
    expect(await statusOf(session, doc.id)).toBe(rows[0]?.decision);
  });

  it('refuses an estimate past its validity date (409, French), leaving it pending', async () => {
    const { session } = await registered(server.url);
    const doc = await estimate(session, { date: '2026-09-01', maturity: '2026-10-01' });
    const late = await answer(server.url, doc.uuid, 'accept', { name: 'Paul Martin', bon_pour_accord: true });
    expect(late).toEqual({
      status: 409,
      body: {
        messages:
          'Ce devis n’est plus valable depuis le 01/10/2026 : il ne peut plus être accepté. Demandez-en un nouveau à Atelier Fontaine.',
      },
    });
    expect(await statusOf(session, doc.id)).toBe('pending');
    expect(await responseOf(session, doc.id)).toBeNull();
  });

  it.each([
    ['no name', {}, 'Nom du signataire'],
    ['a blank name', { name: '  ', bon_pour_accord: true }, 'Nom du signataire : indiquez vos prénom et nom'],
    [
      '« Bon pour accord » not ticked',
      { name: 'Paul Martin', bon_pour_accord: false },
      'Bon pour accord : cochez la case pour accepter le devis',
    ],
    ['a name on two lines', { name: 'Paul\nMartin', bon_pour_accord: true }, 'Nom du signataire : une seule ligne'],
  ])('refuses %s with a 400 naming the field, and changes nothing', async (_label, body, message) => {
    const { session } = await registered(server.url);
    const doc = await estimate(session);
    const refused = await answer(server.url, doc.uuid, 'accept', body);
    expect(refused.status).toBe(400);
    expect([refused.body.messages].flat().some((m: string) => m.startsWith(message))).toBe(true);
    expect(await statusOf(session, doc.id)).toBe('pending');
  });

  it('answers 404 for a forged or unknown uuid and for a draft, 409 for a document that is not an estimate', async () => {
    const { session } = await registered(server.url);
    const { customerId } = await readyToInvoice(session);
    const body = { name: 'Paul Martin', bon_pour_accord: true };
    for (const uuid of ['pas-un-uuid', '00000000-0000-4000-8000-000000000000', '../../api/documents']) {
      expect(await answer(server.url, encodeURIComponent(uuid), 'accept', body)).toEqual({
        status: 404,
        body: { messages: 'Document introuvable' },
      });
    }
    const pendingDraft = await draft(session, { type: 'estimate', customer_id: customerId, items: [line('X', 1, 10)] });
    expect((await answer(server.url, pendingDraft.uuid, 'accept', body)).status).toBe(404);
    const invoice = await issued(session, { customer_id: customerId, items: [line('X', 1, 10)] });
    expect(await answer(server.url, invoice.uuid, 'accept', body)).toEqual({
      status: 409,
      body: { messages: 'Seul un devis peut être accepté ou refusé en ligne' },
    });
    expect(await statusOf(session, invoice.id)).toBe(owedStatus(invoice));
  });
});

describe('POST /api/share/{uuid}/refuse', () => {
  it('takes a reason, marks the estimate refused, tells the owner; accepting afterwards is a 409', async () => {
    const { session, profile } = await registered(server.url);
    const doc = await estimate(session);
    const noReason = await answer(server.url, doc.uuid, 'refuse', { reason: ' ' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.messages).toBe('Motif du refus : dites en quelques mots pourquoi');
    expect(await statusOf(session, doc.id)).toBe('pending');

    const refused = await answer(server.url, doc.uuid, 'refuse', { reason: 'Budget reporté à l’an prochain' });
    expect(refused).toEqual({
      status: 200,
      body: { messages: `Devis ${doc.number} refusé : votre réponse est enregistrée et transmise à Atelier Fontaine.` },
    });
    expect(await statusOf(session, doc.id)).toBe('refused');
    expect(await responseOf(session, doc.id)).toMatchObject({
      decision: 'refused',
      reason: 'Budget reporté à l’an prochain',
      user_agent: BROWSER,
    });
    const notice = await smtp.waitFor(
      (m) => m.to.includes(profile.email) && m.mail.subject === `Devis ${doc.number} refusé par Boulangerie Martin`,
    );
    expect(notice.mail.text).toContain(`Boulangerie Martin a refusé en ligne le devis ${doc.number} le `);
    expect(notice.mail.text).toMatch(
      new RegExp(
        `Devis\u00a0: ${doc.number}\\nClient\u00a0: Boulangerie Martin\\nMontant\u00a0: 1\\s?800,00\\s€\\nMotif\u00a0: Budget reporté à l’an prochain`,
      ),
    );
    expect(notice.mail.text).toContain(`/estimates/${doc.id}/view`);

    const late = await answer(server.url, doc.uuid, 'accept', { name: 'Paul Martin', bon_pour_accord: true });
    expect(late.status).toBe(409);
    expect(late.body.messages).toMatch(/^Ce devis a été refusé le .* : il ne peut plus être accepté ni refusé en ligne$/);
  });
});

describe('without any SMTP server', () => {
  it('records the answer and leaves the owner’s notice in the outbox folder, which the log names', async () => {
    const info = vi.spyOn(logger, 'info');
    try {
      const { session, profile } = await registered(quiet.url);
      const doc = await estimate(session);
      expect((await answer(quiet.url, doc.uuid, 'accept', { name: 'Paul Martin', bon_pour_accord: true })).status).toBe(200);
      expect(await statusOf(session, doc.id)).toBe('accepted');
      const outbox = path.join(quiet.dataDir, 'outbox');
      await vi.waitFor(() =>
        expect(info).toHaveBeenCalledWith(
          expect.objectContaining({ event: 'quote_response_in_outbox', message: expect.stringContaining(`left in ${outbox}`) }),
        ),
      );
      const mails = fs.readdirSync(outbox).map((f) => fs.readFileSync(path.join(outbox, f), 'utf8'));
      expect(mails.some((m) => m.includes(`To: ${profile.email}`) && m.includes(doc.number))).toBe(true);
    } finally {
      info.mockRestore();
    }
  });
});
