import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withServerDb } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { defined } from '../../src/shared/defined';
import { registered, Session } from '../helpers/clients';
import { defaultDocumentTemplate } from '../../src/shared/schemas/template';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

// A real 1×1 PNG.
const PNG_1x1 = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('settings (GET/PUT /api/settings)', () => {
  it('answers the SPEC defaults to a new organisation', async () => {
    const { session } = await registered(server.url);
    const answer = await session.rest('GET', '/api/settings');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      currency_format: { currency: 'EUR', currency_position: 'after', use_space: true, decimal: ',', thousand: '', precision: 2 },
      address_format: '{line1}\n{line2}\n{postal_code} {city}\n{state}\n{country}',
      theme: 'light',
      payment_days: 30,
      late_penalty_rate: 12,
      recovery_indemnity: 40,
      escompte: "Pas d'escompte pour paiement anticipé",
      // One VAT rate per line unless the organisation opts in.
      multiple_taxes_per_line: false,
    });
  });

  it('answers { data } with the default document template for key=document', async () => {
    const { session } = await registered(server.url);
    const answer = await session.rest('GET', '/api/settings?key=document');
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual(defaultDocumentTemplate());
    expect(answer.body.data.numbering.invoice).toEqual({ prefix: 'F{year}-', suffix: '', digit_count: 4 });
  });

  it('saves a whole valid object, answers Mise à jour avec succès, and keeps it per organisation', async () => {
    const { session } = await registered(server.url);
    const { session: other } = await registered(server.url);
    const settings = (await session.rest('GET', '/api/settings')).body;
    settings.currency_format = { ...settings.currency_format, currency_position: 'before', thousand: ' ', precision: 3 };
    settings.theme = 'dark';
    const saved = await session.rest('PUT', '/api/settings', settings);
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ messages: 'Mise à jour avec succès', data: settings });
    expect((await session.rest('GET', '/api/settings')).body).toEqual(settings);
    expect((await other.rest('GET', '/api/settings')).body.theme).toBe('light');
    const viaTrpc = await session.trpc().settings.get.query();
    expect(viaTrpc).toEqual(settings);
  });

  it.each([
    ['an unknown theme', { theme: 'violet' }, /Thème/],
    ['a precision of 9', { currency_format: { precision: 9 } }, /Précision entre 0 et 4/],
    ['a lowercase currency', { currency_format: { currency: 'eur' } }, /Code devise invalide/],
    ['an unknown field', { couleur: 'rouge' }, /couleur/],
    ['a recovery indemnity under the legal 40 €', { recovery_indemnity: 10 }, /40 € au moins/],
  ])('refuses %s with 400 and changes nothing', async (_label, patch, message) => {
    const { session } = await registered(server.url);
    const before = (await session.rest('GET', '/api/settings')).body;
    const body = {
      ...before,
      ...patch,
      currency_format: { ...before.currency_format, ...('currency_format' in patch ? patch.currency_format : {}) },
    };
    const answer = await session.rest('PUT', '/api/settings', body);
    expect(answer.status).toBe(400);
    expect(JSON.stringify(answer.body.messages)).toMatch(message);
    expect((await session.rest('GET', '/api/settings')).body).toEqual(before);
  });

  it('is 401 when logged out', async () => {
    expect((await new Session(server.url).rest('GET', '/api/settings')).status).toBe(401);
    expect((await new Session(server.url).rest('PUT', '/api/settings', {})).status).toBe(401);
  });
});

describe('feedback (POST /api/feedback)', () => {
  const rows = () =>
    withServerDb(server, (db) =>
      db.selectFrom('feedback').select(['user_id', 'organization_id', 'message', 'screenshot', 'created_at']).orderBy('id').execute(),
    );

  it('stores the message with user, organisation and time, and answers the SPEC message', async () => {
    const { session, profile } = await registered(server.url);
    const answer = await session.rest('POST', '/api/feedback', { message: 'Le bouton Enregistrer est trop loin', screenshot: null });
    expect(answer).toMatchObject({ status: 200, body: { messages: 'Votre feedback a été envoyé avec succès' } });
    const row = defined((await rows()).at(-1), 'the feedback row');
    expect(row).toMatchObject({
      user_id: profile.id,
      organization_id: profile.organization.id,
      message: 'Le bouton Enregistrer est trop loin',
      screenshot: null,
    });
    expect(row.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
  });

  it('stores a PNG screenshot sent through the typed client', async () => {
    const { session } = await registered(server.url);
    await session.trpc().feedback.send.mutate({ message: 'Avec capture', screenshot: PNG_1x1 });
    expect((await rows()).at(-1)).toMatchObject({ message: 'Avec capture', screenshot: PNG_1x1 });
  });

  it('stops storing screenshots past the day’s quota (ten 8 MB ones went in within 1.6 s), but keeps taking messages', async () => {
    const { session } = await registered(server.url);
    const big = `data:image/png;base64,iVBORw0KGgo${'A'.repeat(7_900_000)}`;
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push((await session.rest('POST', '/api/feedback', { message: `capture ${i}`, screenshot: big })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 429]);
    const refused = await session.rest('POST', '/api/feedback', { message: 'encore', screenshot: big });
    expect(refused.body.messages).toBe(
      'Capture d’écran : le quota du jour est atteint ; envoyez votre message sans capture, ou réessayez demain',
    );
    expect((await session.rest('POST', '/api/feedback', { message: 'sans capture', screenshot: null })).status).toBe(200);
  });

  it.each([
    ['an empty message', { message: '', screenshot: null }, 400, 'Veuillez entrer un message'],
    ['a message of spaces', { message: '   \n ', screenshot: null }, 400, 'Veuillez entrer un message'],
    ['no message at all', { screenshot: null }, 400, 'Veuillez entrer un message'],
    ['a JPEG instead of a PNG', { message: 'x', screenshot: 'data:image/jpeg;base64,/9j/4AAQSkZJRg==' }, 400, /PNG/],
    ['a PNG data URL that is not a PNG', { message: 'x', screenshot: 'data:image/png;base64,PHN2Zz48L3N2Zz4=' }, 400, /PNG/],
    [
      'a screenshot over the size cap',
      { message: 'x', screenshot: `data:image/png;base64,iVBORw0KGgo${'A'.repeat(8_500_000)}` },
      400,
      /8 Mo/,
    ],
    [
      'a body over 10 MB',
      { message: 'x', screenshot: `data:image/png;base64,iVBORw0KGgo${'A'.repeat(10_600_000)}` },
      413,
      /trop volumineuse/,
    ],
  ])('refuses %s (%i) and stores nothing', async (_label, body, status, message) => {
    const { session } = await registered(server.url);
    const before = (await rows()).length;
    const answer = await session.rest('POST', '/api/feedback', body);
    expect(answer.status).toBe(status);
    expect(JSON.stringify(answer.body.messages)).toMatch(message);
    expect(await rows()).toHaveLength(before);
  });

  it('is 401 when logged out', async () => {
    expect((await new Session(server.url).rest('POST', '/api/feedback', { message: 'x', screenshot: null })).status).toBe(401);
  });
});
