import { closeAuditPeriods } from '../../src/server/services/audit-closings';
import { withServerDb } from '../helpers/database';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import superjson from 'superjson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHTTPHandler } from '@trpc/server/adapters/standalone';
import { appRouter } from '../../src/server/routers/_app';
import { proceduresOf } from '../../src/server/procedures';
import { createContext } from '../../src/server/context';
import { startFakePa, type FakePa } from '../helpers/fake-pa';
import { serveFlows } from '../helpers/fake-pa-flows';
import { serveDirectory } from '../helpers/fake-pa-directory';
import { startTestServer, type TestServer } from '../helpers/server';
import { startStripeStub, type StripeStub } from '../helpers/stripe';
import { Session } from '../helpers/clients';
import { businessCustomer, line, sellerIdentity } from '../helpers/documents';
import { keepPdf } from '../helpers/kept-pdf';
import { base64, camt053 } from '../helpers/bank-statements';
import { mod97 } from '../../src/shared/mod97';
import { defined } from '../../src/shared/defined';
import { parisToday } from '../../src/shared/paris-date';

/**
 * src/server/http/trpc-door.ts answers /api/trpc with tRPC's internals instead of its HTTP adapter (STACK.md trap 1:
 * the adapter was ~5× slower in `npm run bench -- api`). This test keeps that fork honest: every procedure of the
 * router, each request sent to the fork and to tRPC's stock adapter, same status and same JSON. The two sides are two
 * servers with two fresh databases that receive the same requests in the same order, so ids and numbers agree;
 * timestamps and random uuids are masked. A procedure added without a sample below fails the test.
 */

type Pair<T> = [fork: T, stock: T];
interface Call {
  input: Pair<unknown>;
  /** Another session than the owner's (logout revokes the one it is sent with). */
  cookies?: Pair<string | undefined>;
}
interface Side {
  server: TestServer;
  /** Where /api/trpc is answered: the app itself (the fork) or the stock adapter over the same database. */
  trpcUrl: string;
  owner: Session;
}

let fork: Side;
let stock: Side;
let stockServer: http.Server;

const OWNER = { first_name: 'Camille', last_name: 'Durand', password: 'motdepasse-solide', organization: 'Durand Conseil SARL' };
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

async function side(server: TestServer, trpcUrl: string): Promise<Side> {
  const owner = new Session(server.url);
  const answer = await owner.rest('POST', '/api/auth/register', { ...OWNER, email: 'parite@exemple.fr' });
  expect(answer.status).toBe(201);
  return { server, trpcUrl, owner };
}

/** Stands for Stripe's API, for the organisations' own keys (card payments on the share page). */
let stripe: StripeStub;
beforeAll(async () => {
  stripe = await startStripeStub();
  const forkServer = await startTestServer({ env: { STRIPE_API_BASE: stripe.url } });
  const stockApp = await startTestServer({ env: { STRIPE_API_BASE: stripe.url } });
  const handler = createHTTPHandler({
    router: appRouter,
    basePath: '/api/trpc/',
    createContext: ({ req, res }) => createContext(stockApp.app.deps, req, res),
  });
  stockServer = http.createServer(handler);
  await new Promise<void>((resolve) => stockServer.listen(0, '127.0.0.1', resolve));
  const { port } = stockServer.address() as AddressInfo;
  fork = await side(forkServer, `${forkServer.url}/api/trpc`);
  stock = await side(stockApp, `http://127.0.0.1:${port}/api/trpc`);
});
afterAll(async () => {
  await platform?.close();
  await stripe.close();
  await new Promise((resolve) => stockServer.close(resolve));
  await fork.server.close();
  await stock.server.close();
});

/** What differs between two databases fed the same requests: instants and random uuids. */
function masked(body: string): unknown {
  const text = body
    .replace(/\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z/g, '<instant>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    // The audit log's SHA-256 hashes cover its entries' instants, so they differ between the two sides too.
    .replace(/\b[0-9a-f]{64}\b/g, '<sha256>')
    // iCalendar instants (DTSTAMP) and a calendar feed's random token.
    .replace(/\b\d{8}T\d{6}Z\b/g, '<ics-instant>')
    // An e-reporting file's issue instant (UN/CEFACT format 204), to the second.
    .replace(/<DateTimeString>\d{14}<\/DateTimeString>/g, '<DateTimeString><instant></DateTimeString>')
    .replace(/\/api\/calendar\/[\w-]+\.ics/g, '/api/calendar/<token>.ics')
    // An API key's random secret, and its visible start.
    .replace(/\bfk_live_[a-z2-7]*/g, 'fk_live_<secret>')

    // A webhook's random secret (and its visible start), and how long its receiver took to answer.
    .replace(/whsec_[\w-]+(…)?/g, '<secret>')
    .replace(/"response_ms":\d+/g, '"response_ms":0')
    .replace(/ en \d+ ms/g, ' en <n> ms')
    // A device's public id is the start of its session's hash (random on each side).
    .replace(/"id":"[0-9a-f]{16}"/g, '"id":"<device>"')
    // The Stripe stub numbers the Checkout Sessions it opens, for both sides in turn.
    .replace(/cs_pay_\d+/g, 'cs_pay_<n>')
    // Each side has its own DATA_DIR, named in the messages that point at its outbox folder.
    .replace(/\/[^\s()"«»]*\/outbox\b/g, '<outbox>')
    // A closing's signature and public key are derived from each side's own audit key.
    .replace(/"(signature|public_key)":"[^"]+"/g, '"$1":"<key>"');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

type Kind = 'query' | 'mutation';
const kindOf = (procedure: string): Kind =>
  proceduresOf(appRouter).find((p) => p.path === procedure)?.procedure._def.type === 'mutation' ? 'mutation' : 'query';

/** One request in the typed client's wire format (superjson), single or batched. */
async function send(
  s: Side,
  procedures: string[],
  inputs: unknown[],
  opts: { cookie?: string | null; method?: 'GET' | 'POST' } = {},
): Promise<{ status: number; body: unknown }> {
  const batch = procedures.length > 1;
  const method = opts.method ?? (kindOf(procedures[0] ?? '') === 'mutation' ? 'POST' : 'GET');
  const serialized = inputs.map((input) => (input === undefined ? undefined : superjson.serialize(input)));
  const payload = batch ? Object.fromEntries(serialized.map((v, i) => [i, v])) : serialized[0];
  const params = new URLSearchParams();
  if (batch) params.set('batch', '1');
  if (method === 'GET' && payload !== undefined) params.set('input', JSON.stringify(payload));
  const query = params.size > 0 ? `?${params}` : '';
  const cookie = opts.cookie === null ? undefined : (opts.cookie ?? s.owner.cookie);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (cookie) headers.cookie = cookie;
  const response = await fetch(`${s.trpcUrl}/${procedures.join(',')}${query}`, {
    method,
    headers,
    body: method === 'POST' && payload !== undefined ? JSON.stringify(payload) : undefined,
  });
  return { status: response.status, body: masked(await response.text()) };
}

/** The same REST request on both sides (fixtures); both must answer alike, and the fork's answer is returned. */
/** The parts of a REST answer the fixtures read: a write's record id, a document's customer. */
interface RestAnswer {
  data: { id: number };
  customer_id: number;
}
async function same(method: string, url: string, body?: unknown): Promise<RestAnswer> {
  const a = await fork.owner.rest(method, url, body);
  const b = await stock.owner.rest(method, url, body);
  expect(a.status, `${method} ${url}: ${JSON.stringify(a.body)}`).toBeLessThan(300);
  expect(masked(JSON.stringify(b.body))).toEqual(masked(JSON.stringify(a.body)));
  return a.body;
}
/** A fixture that differs by side (a uuid, a token): one value each. */
async function each<T>(make: (s: Side) => Promise<T>): Promise<Pair<T>> {
  return [await make(fork), await make(stock)];
}
const both = <T>(value: T): Pair<T> => [value, value];

/** The fake approved platform both organisations are connected to, started by the first sample that needs it. */
let platform: FakePa | undefined;
async function platformSettings() {
  if (!platform) {
    platform = await startFakePa();
    // Customers saved while the platform is connected are looked up in its directory.
    serveDirectory(platform).list('732829320', 'BOULANGERIE MARTIN', [
      { addressingIdentifier: '732829320_FACTURES', routingIdentifier: 'COMPTA' },
    ]);
  }
  return {
    mode: 'afnor',
    flow_url: platform.flowUrl,
    directory_url: platform.directoryUrl,
    token: platform.staticToken,
    pa_matricule: '0042',
    syntax: 'factur-x',
  } as const;
}

let emails = 0;
async function newUserOnBoth(): Promise<string> {
  emails += 1;
  const email = `membre${emails}@exemple.fr`;
  await each((s) => new Session(s.server.url).rest('POST', '/api/auth/register', { ...OWNER, email }));
  return email;
}
/** The token of the latest sender confirmation link mailed to `email` on that side. */
function senderToken(s: Side, email: string): string {
  const outbox = path.join(s.server.dataDir, 'outbox');
  const mails = fs
    .readdirSync(outbox)
    .sort()
    .map((f) => fs.readFileSync(path.join(outbox, f), 'utf8').replace(/=\r?\n/g, ''))
    .filter((m) => m.includes(`To: ${email}`));
  const match = mails.at(-1)?.match(/\/sender\/confirm\/([a-z2-7]+)/);
  if (!match?.[1]) throw new Error(`no sender confirmation mail to ${email}`);
  return match[1];
}

function mailedToken(s: Side, email: string, route: string): string {
  const outbox = path.join(s.server.dataDir, 'outbox');
  const mails = fs
    .readdirSync(outbox)
    .sort()
    .map((f) =>
      fs
        .readFileSync(path.join(outbox, f), 'utf8')
        .replace(/=\r?\n/g, '')
        .replace(/=3D/g, '='),
    )
    .filter((m) => m.includes(`To: ${email}`) && m.includes(route));
  const match = mails.at(-1)?.match(new RegExp(`${route}\\?token=([a-z2-7]+)`));
  if (!match?.[1]) throw new Error(`no ${route} mail to ${email}`);
  return match[1];
}

const STRIPE_KEYS = { publishable_key: 'pk_test_51Parite', secret_key: 'sk_test_51PariteSecret', webhook_secret: 'whsec_PariteSigning' };

/** A document's public uuid, one per side. */
const shareUuidOf = (id: number) => each(async (s) => ({ uuid: (await s.owner.rest('GET', `/api/documents/${id}`)).body.uuid as string }));
const customerId = async () => (await same('POST', '/api/customers', businessCustomer)).data.id as number;
const itemId = async () => (await same('POST', '/api/items', { name: 'Conseil', unit_price: 100 })).data.id as number;
const expenseBody = {
  date: '2026-03-02',
  supplier: 'Boulangerie Paul',
  category: 'repas',
  amount: 22,
  vat: [{ rate: 10, amount: 2 }],
  status: 'paid',
};
const expenseId = async () => (await same('POST', '/api/expenses', expenseBody)).data.id as number;
const recurringBody = { supplier: 'OVH', category: 'logiciels', amount: 12, frequency: 'monthly', start_date: '2026-01-15' };
const recurringId = async () => (await same('POST', '/api/recurring-expenses', recurringBody)).data.id as number;
async function recurringInvoiceBody() {
  await same('PUT', '/api/organization', sellerIdentity);
  return {
    customer_id: await customerId(),
    items: [line('Abonnement {month} {year}', 1, 50)],
    frequency: 'monthly',
    start_date: '2026-01-31',
  };
}
const recurringInvoiceId = async () => (await same('POST', '/api/recurring', await recurringInvoiceBody())).data.id as number;
const tinyPdf = `data:application/pdf;base64,${Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64')}`;
const appointmentBody = { title: 'Point chantier', date: '2026-10-24', start: '9h30', end: '10:45', location: 'Paris', note: '' };
const appointmentId = async (extra: Record<string, unknown> = {}) =>
  (await same('POST', '/api/appointments', { ...appointmentBody, ...extra })).data.id as number;
const tagId = async () => (await same('POST', '/api/tags', { name: `Étiquette ${++emails}` })).data.id as number;
/** A document of `type`, issued or not; dated 2 November 2026 unless `date` (today, for what the day decides). */
async function documentId(type = 'invoice', issue = false, date = '2026-11-02'): Promise<number> {
  await same('PUT', '/api/organization', sellerIdentity);
  const customer = await customerId();
  const created = await same('POST', '/api/documents', {
    type,
    date,
    customer_id: customer,
    items: [line('Conseil', 2, 100)],
  });
  if (issue) await same('POST', `/api/documents/${created.data.id}/issue`);
  return created.data.id;
}
async function paymentOf(): Promise<{ id: number; paymentId: number }> {
  const id = await documentId('invoice', true);
  const payment = await same('POST', `/api/documents/${id}/payments`, { date: '2026-11-05', amount: 10 });
  return { id, paymentId: payment.data.id };
}

/** An address invited into the owner's organisation on both sides, with each side's mailed token. */
async function invitation(role = 'member'): Promise<{ email: string; tokens: Pair<string> }> {
  emails += 1;
  const email = `invite${emails}@exemple.fr`;
  await same('POST', '/api/members', { email, role });
  return { email, tokens: await each(async (s) => mailedToken(s, email, '/invitation')) };
}
/** A new user on both sides, owner of an organisation of their own: their session per side. */
async function ownSessions(): Promise<Pair<Session>> {
  emails += 1;
  const email = `equipe${emails}@exemple.fr`;
  return each(async (s) => {
    const session = new Session(s.server.url);
    await session.rest('POST', '/api/auth/register', { ...OWNER, email });
    return session;
  });
}
const acceptBody = { first_name: 'Louise', last_name: 'Petit', password: OWNER.password };
/** A member who accepted an invitation into the owner's organisation: their membership id (alike on both sides). */
async function memberId(): Promise<number> {
  const { tokens } = await invitation();
  await each(async (s) =>
    new Session(s.server.url).rest('POST', '/api/auth/invitation/accept', { ...acceptBody, token: tokens[s === fork ? 0 : 1] }),
  );
  const team = (await same('GET', '/api/members')) as unknown as { members: { id: number }[] };
  return team.members.at(-1)?.id ?? 0;
}

/** Port 9 (discard) on loopback refuses the connection at once, alike on both sides. */
const webhookBody = { url: 'http://127.0.0.1:9/facturier', events: ['expense.created', 'document.issued'] };
/** A valid French IBAN per call: an organisation keeps each IBAN once. */
let ibans = 0;
function nextIban(): string {
  const bban = `3000100794${String(++ibans).padStart(11, '0')}85`;
  return `FR${String(98 - mod97(`${bban}FR00`)).padStart(2, '0')}${bban}`;
}
const bankAccount = async () => {
  const iban = nextIban();
  return { iban, id: (await same('POST', '/api/bank-accounts', { name: 'Compte courant', iban })).data.id as number };
};
/** An account with one imported debit of 59.99 and the unpaid expense it pays. */
async function bankLine() {
  const account = await bankAccount();
  const expense = (await same('POST', '/api/expenses', { ...expenseBody, supplier: 'Orange', amount: 59.99, vat: [], status: 'unpaid' }))
    .data.id as number;
  const xml = camt053(account.iban, [{ date: '2026-03-05', amount: '-59.99', label: 'PRLV ORANGE' }]);
  await same('POST', `/api/bank-accounts/${account.id}/import`, { filename: 'releve.xml', content_base64: base64(xml) });
  const listed = (await same('GET', `/api/bank-transactions?account_id=${account.id}`)) as unknown as { data: { id: number }[] };
  return { line: listed.data[0]?.id as number, expense };
}

async function webhookId(): Promise<number> {
  return (await same('POST', '/api/webhooks', webhookBody)).data.id;
}

/** A valid input of every procedure, with the records it needs created first on both sides. */
const samples: Record<string, () => Promise<Call>> = {
  'auth.register': async () => ({ input: both({ ...OWNER, email: `nouveau${++emails}@exemple.fr` }) }),
  'auth.login': async () => ({ input: both({ email: 'parite@exemple.fr', password: OWNER.password }) }),
  'auth.logout': async () => {
    const email = await newUserOnBoth();
    const cookies = await each(async (s) => {
      const session = new Session(s.server.url);
      await session.rest('POST', '/api/auth/login', { email, password: OWNER.password });
      return session.cookie;
    });
    return { input: both(undefined), cookies };
  },
  'auth.me': async () => ({ input: both(undefined) }),
  'auth.forgotPassword': async () => ({ input: both({ email: 'parite@exemple.fr' }) }),
  'auth.resetPassword': async () => {
    const email = await newUserOnBoth();
    await same('POST', '/api/auth/password/forgot', { email });
    return { input: await each(async (s) => ({ token: mailedToken(s, email, '/auth/password/reset'), password: 'nouveau-secret-2026' })) };
  },
  'auth.verifyEmail': async () => {
    const email = await newUserOnBoth();
    return { input: await each(async (s) => ({ token: mailedToken(s, email, '/auth/verify_email') })) };
  },
  'auth.invitation': async () => ({ input: (await invitation()).tokens.map((token) => ({ token })) as Pair<unknown> }),
  'auth.acceptInvitation': async () => ({
    input: (await invitation('accountant')).tokens.map((token) => ({ ...acceptBody, token })) as Pair<unknown>,
    cookies: [undefined, undefined],
  }),
  'members.list': async () => {
    await invitation();
    return { input: both(undefined) };
  },
  'members.invite': async () => ({ input: both({ email: `nouvelle${++emails}@exemple.fr`, role: 'admin' }) }),
  'members.updateRole': async () => ({ input: both({ id: await memberId(), role: 'accountant' }) }),
  'members.remove': async () => ({ input: both({ id: await memberId() }) }),
  'members.revokeInvitation': async () => {
    await invitation();
    const team = (await same('GET', '/api/members')) as unknown as { invitations: { id: number }[] };
    return { input: both({ id: team.invitations.at(-1)?.id }) };
  },
  'members.join': async () => {
    const sessions = await ownSessions();
    const email = (await each(async (s) => (await sessions[s === fork ? 0 : 1].rest('GET', '/api/auth')).body.email as string))[0];
    await same('POST', '/api/members', { email, role: 'member' });
    const tokens = await each(async (s) => mailedToken(s, email, '/invitation'));
    return {
      input: tokens.map((token) => ({ token })) as Pair<unknown>,
      cookies: sessions.map((x) => x.cookie) as Pair<string | undefined>,
    };
  },
  'members.transferOwnership': async () => {
    // Another owner hands over their own organisation: the shared owner stays owner for the samples after this one.
    const sessions = await ownSessions();
    emails += 1;
    const email = `successeur${emails}@exemple.fr`;
    const ids = await each(async (s) => {
      const owner = sessions[s === fork ? 0 : 1];
      await owner.rest('POST', '/api/members', { email, role: 'admin' });
      await new Session(s.server.url).rest('POST', '/api/auth/invitation/accept', {
        ...acceptBody,
        token: mailedToken(s, email, '/invitation'),
      });
      return (await owner.rest('GET', '/api/members')).body.members.at(-1).id as number;
    });
    return { input: ids.map((id) => ({ id })) as Pair<unknown>, cookies: sessions.map((x) => x.cookie) as Pair<string | undefined> };
  },
  'organizations.list': async () => ({ input: both(undefined) }),
  // To the organisation the owner is in already: moving the shared session elsewhere would change every later sample.
  'organizations.switch': async () => {
    const me = (await same('GET', '/api/auth')) as unknown as { organization: { id: number } };
    return { input: both({ id: me.organization.id }) };
  },
  'devices.list': async () => ({ input: both(undefined) }),
  'webhooks.list': async () => {
    await webhookId();
    return { input: both(undefined) };
  },
  'webhooks.create': async () => ({ input: both(webhookBody) }),
  'webhooks.update': async () => ({ input: both({ id: await webhookId(), data: { ...webhookBody, enabled: false } }) }),
  'webhooks.delete': async () => ({ input: both({ id: await webhookId() }) }),
  'webhooks.deliveries': async () => {
    const id = await webhookId();
    await same('POST', `/api/webhooks/${id}/test`);
    return { input: both({ id }) };
  },
  'webhooks.test': async () => ({ input: both({ id: await webhookId() }) }),
  // A ping's delivery id is random on each side: each side resends its own.
  'webhooks.resend': async () => {
    const id = await webhookId();
    const ids = await each(async (s) => (await s.owner.rest('POST', `/api/webhooks/${id}/test`)).body.data.id as string);
    return { input: ids.map((delivery_id) => ({ id, delivery_id })) as Pair<unknown> };
  },
  'webhooks.replay': async () => ({ input: both({ id: await webhookId(), range: { from: '2026-01-01', to: '2026-02-01' } }) }),
  'devices.revoke': async () => {
    // Another browser of the shared owner: its public id, read from that browser's own list.
    const ids = await each(async (s) => {
      const other = new Session(s.server.url);
      await other.rest('POST', '/api/auth/login', { email: 'parite@exemple.fr', password: OWNER.password });
      return (await other.rest('GET', '/api/devices')).body.data.find((d: { current: boolean }) => d.current).id as string;
    });
    return { input: ids.map((id) => ({ id })) as Pair<unknown> };
  },
  // Another user's sessions: the shared owner's other browsers are left alone.
  'devices.revokeOthers': async () => ({
    input: both(undefined),
    cookies: (await ownSessions()).map((x) => x.cookie) as Pair<string | undefined>,
  }),
  'apiKeys.list': async () => {
    await same('POST', '/api/api-keys', { name: 'Parité', scope: 'read' });
    return { input: both(undefined) };
  },
  'apiKeys.create': async () => ({ input: both({ name: 'Intégration', scope: 'write' }) }),
  'apiKeys.revoke': async () => {
    const created = (await same('POST', '/api/api-keys', { name: 'À révoquer', scope: 'read' })) as unknown as { data: { id: number } };
    return { input: both({ id: created.data.id }) };
  },
  'settings.get': async () => ({ input: both({ key: 'document' }) }),
  'settings.update': async () => ({ input: both({ data: { theme: 'dark' } }) }),
  'feedback.send': async () => ({ input: both({ message: 'Tout va bien', screenshot: PNG }) }),
  'system.version': async () => ({ input: both(undefined) }),
  'system.health': async () => ({ input: both(undefined) }),
  'customers.list': async () => {
    await customerId();
    return { input: both({ search: 'Martin' }) };
  },
  'customers.get': async () => ({ input: both({ id: await customerId() }) }),
  'customers.duplicates': async () => {
    await customerId();
    return { input: both({ name: businessCustomer.name, business_id: businessCustomer.business_id }) };
  },
  'customers.create': async () => ({ input: both(businessCustomer) }),
  'customers.update': async () => ({
    input: both({ id: await customerId(), data: { ...businessCustomer, name: 'Boulangerie Martin & fils' } }),
  }),
  'customers.delete': async () => ({ input: both({ id: await customerId() }) }),
  'customers.import': async () => ({ input: both({ csv: 'Nom;E-mail\nDupont;dupont@exemple.fr\n;x', dry_run: true }) }),
  'customers.export': async () => ({ input: both(undefined) }),
  'customers.restore': async () => {
    const id = await customerId();
    await same('DELETE', `/api/customers/${id}`);
    return { input: both({ id }) };
  },
  'items.list': async () => {
    await itemId();
    return { input: both(undefined) };
  },
  'items.get': async () => ({ input: both({ id: await itemId() }) }),
  'items.create': async () => ({ input: both({ name: 'Formation', unit_price: 450, kind: 'service' }) }),
  'items.update': async () => ({ input: both({ id: await itemId(), data: { name: 'Conseil senior', unit_price: 120 } }) }),
  'items.delete': async () => ({ input: both({ id: await itemId() }) }),
  'items.import': async () => ({ input: both({ csv: 'Désignation;Prix unitaire HT\nAudit;300', dry_run: true }) }),
  'items.export': async () => ({ input: both(undefined) }),
  'items.restore': async () => {
    const id = await itemId();
    await same('DELETE', `/api/items/${id}`);
    return { input: both({ id }) };
  },
  'organization.get': async () => ({ input: both(undefined) }),
  'organization.update': async () => ({ input: both(sellerIdentity) }),
  'organization.uploadLogo': async () => ({ input: both({ data_url: PNG }) }),
  'organization.deleteLogo': async () => ({ input: both(undefined) }),
  'search.query': async () => {
    await customerId();
    return { input: both({ q: 'Martin' }) };
  },
  'documents.list': async () => {
    await documentId();
    return { input: both({ type: 'invoice' }) };
  },
  'documents.get': async () => ({ input: both({ id: await documentId() }) }),
  'documents.create': async () => {
    await same('PUT', '/api/organization', sellerIdentity);
    const customer = await customerId();
    return { input: both({ type: 'invoice', date: '2026-11-02', customer_id: customer, items: [line('Conseil', 2, 100)] }) };
  },
  'documents.update': async () => {
    const id = await documentId();
    return { input: both({ id, data: { type: 'invoice', date: '2026-11-03', items: [line('Conseil', 3, 100)] } }) };
  },
  'documents.delete': async () => ({ input: both({ id: await documentId() }) }),
  'documents.issue': async () => ({ input: both({ id: await documentId() }) }),
  'documents.setStatus': async () => ({ input: both({ id: await documentId('estimate', true), status: 'accepted' }) }),
  'documents.markSent': async () => ({ input: both({ id: await documentId('invoice', true) }) }),
  'documents.convert': async () => ({ input: both({ id: await documentId('estimate', true), type: 'invoice' }) }),
  'documents.duplicate': async () => ({ input: both({ id: await documentId() }) }),
  'documents.deposit': async () => ({ input: both({ id: await documentId('estimate', true), percent: 30 }) }),
  'documents.payments': async () => ({ input: both({ id: (await paymentOf()).id }) }),
  'documents.recordPayment': async () => ({
    input: both({ id: await documentId('invoice', true), data: { date: '2026-11-05', amount: 20, method: 'card' } }),
  }),
  'documents.refundCredit': async () => {
    // A credit note on a paid invoice: nothing is left open to set it against, so it has all of it to refund.
    const invoice = await documentId('invoice', true);
    await same('POST', `/api/documents/${invoice}/payments`, { date: '2026-11-05', amount: 240 });
    const credit = await same('POST', `/api/documents/${invoice}/convert`, { type: 'credit' });
    await same('POST', `/api/documents/${credit.data.id}/issue`);
    return { input: both({ id: credit.data.id, data: { date: '2026-11-06', amount: 20, method: 'transfer' } }) };
  },
  'documents.updatePayment': async () => ({ input: both({ ...(await paymentOf()), data: { date: '2026-11-06', amount: 15 } }) }),
  'documents.deletePayment': async () => ({ input: both(await paymentOf()) }),
  'figures.dashboard': async () => {
    await documentId('invoice', true);
    return { input: both(undefined) };
  },
  'figures.customer': async () => {
    const id = await documentId('invoice', true);
    const document = await same('GET', `/api/documents/${id}`);
    return { input: both({ id: document.customer_id }) };
  },
  'share.get': async () => {
    const id = await documentId('invoice', true);
    return { input: await each(async (s) => ({ uuid: (await s.owner.rest('GET', `/api/documents/${id}`)).body.uuid })) };
  },
  'share.quote': async () => ({ input: await shareUuidOf(await documentId('estimate', true)) }),
  'share.checkout': async () => {
    await same('PUT', '/api/settings/online-payment', STRIPE_KEYS);
    return { input: await shareUuidOf(await documentId('invoice', true)) };
  },
  // An estimate of today's: one dated earlier is past its validity, which the acceptance refuses.
  'share.accept': async () => ({
    input: (await shareUuidOf(await documentId('estimate', true, parisToday()))).map((i) => ({
      ...i,
      name: 'Paul Martin',
      bon_pour_accord: true,
    })) as Pair<unknown>,
  }),
  'share.refuse': async () => ({
    input: (await shareUuidOf(await documentId('estimate', true))).map((i) => ({ ...i, reason: 'Trop cher' })) as Pair<unknown>,
  }),
  'documentMail.draft': async () => ({ input: both({ id: await documentId('invoice', true) }) }),
  'documentMail.send': async () => {
    const id = await documentId('invoice', true);
    await each((s) => keepPdf(s.server, id)); // the PDF kept at issue, as in production (no browser build needed)
    return { input: both({ id, to: 'compta@boulangerie-martin.fr', subject: 'Votre facture' }) };
  },
  'documents.einvoice': async () => ({ input: both({ id: await documentId('invoice', true), format: 'cii' }) }),
  'einvoice.lifecycle': async () => ({ input: both({ id: await documentId('invoice', true) }) }),
  'einvoice.recordStatus': async () => ({
    input: both({ id: await documentId('invoice', true), data: { status: 'refused', date: '2026-11-10', reason: 'Prix non conforme' } }),
  }),
  'einvoice.send': async () => {
    // Only the folder connector sends (an einvoicing sample may have chosen the platform's API).
    await same('PUT', '/api/settings/einvoicing', { mode: 'folder', pa_matricule: '', syntax: 'factur-x' });
    const id = await documentId('invoice', true);
    await each((s) => keepPdf(s.server, id));
    return { input: both({ id }) };
  },
  'einvoice.transmit': async () => {
    // Through the platform's API: the invoice is queued at issue, « Transmettre » submits it now to the fake platform.
    await same('PUT', '/api/settings/einvoicing', { ...(await platformSettings()), syntax: 'cii' });
    if (platform) serveFlows(platform);
    return { input: both({ id: await documentId('invoice', true) }) };
  },
  'einvoicing.sync': async () => {
    await same('PUT', '/api/settings/einvoicing', { ...(await platformSettings()), syntax: 'cii' });
    if (platform) serveFlows(platform);
    return { input: both(undefined) };
  },
  'einvoicing.inbox': async () => ({ input: both(undefined) }),
  'einvoicing.directory': async () => {
    await same('PUT', '/api/settings/einvoicing', { ...(await platformSettings()), syntax: 'cii' });
    return { input: both({ siren: '732829320' }) };
  },
  'customers.checkDirectory': async () => {
    await same('PUT', '/api/settings/einvoicing', { ...(await platformSettings()), syntax: 'cii' });
    return { input: both({ id: await customerId() }) };
  },
  'einvoicing.overview': async () => ({ input: both(undefined) }),
  'ereporting.list': async () => ({ input: both({ year: 2026 }) }),
  'ereporting.xml': async () => {
    await same('PUT', '/api/organization', sellerIdentity);
    return { input: both({ period: '2026-10', kind: 'transactions' }) };
  },
  'ereporting.transmit': async () => {
    // A month without any sale to a private person is still reported (a nil report), to the fake platform.
    await same('PUT', '/api/organization', sellerIdentity);
    await same('PUT', '/api/settings/einvoicing', { ...(await platformSettings()), syntax: 'cii' });
    if (platform) serveFlows(platform);
    return { input: both({ period: '2026-09', kind: 'transactions' }) };
  },
  'expenses.lifecycle': async () => ({ input: both({ id: await expenseId() }) }),
  'expenses.sendStatus': async () => {
    // A supplier's invoice received from the platform by both organisations, then approved by each.
    await same('PUT', '/api/organization', sellerIdentity);
    await same('PUT', '/api/settings/einvoicing', { ...(await platformSettings()), syntax: 'cii' });
    const flows = serveFlows(defined(platform));
    const supplier = await startTestServer();
    try {
      const session = new Session(supplier.url);
      await session.rest('POST', '/api/auth/register', { ...OWNER, email: 'fournisseur@exemple.fr' });
      await session.rest('PUT', '/api/organization', sellerIdentity);
      const customer = (await session.rest('POST', '/api/customers', businessCustomer)).body.data.id;
      const draft = (
        await session.rest('POST', '/api/documents', {
          type: 'invoice',
          date: '2026-03-02',
          customer_id: customer,
          items: [line('Maintenance', 1, 300)],
        })
      ).body.data;
      await session.rest('POST', `/api/documents/${draft.id}/issue`);
      const xml = await session.fetch(`${supplier.url}/api/documents/${draft.id}/einvoice?format=cii`).then((r) => r.arrayBuffer());
      flows.receive({ flowType: 'SupplierInvoice', data: Buffer.from(xml), name: 'facture.xml' });
    } finally {
      await supplier.close();
    }
    const ids = await each(async (s) => {
      await s.owner.rest('POST', '/api/einvoicing/sync');
      const list = (await s.owner.rest('GET', '/api/expenses?per_page=50')).body.data as { id: number; source: string }[];
      return defined(list.find((e) => e.source === 'platform')).id;
    });
    return {
      input: [
        { id: ids[0], data: { status: 'approved' } },
        { id: ids[1], data: { status: 'approved' } },
      ],
    };
  },
  'einvoice.poll': async () => ({ input: both(undefined) }),
  'einvoice.directory': async () => {
    const entry = { siren: '732829320', name: 'Boulangerie Martin', platform: 'PA Exemple', routing_id: '732829320_FACTURES' };
    await each(async (s) => {
      const folder = path.join(s.server.dataDir, 'platform', 'directory');
      fs.mkdirSync(folder, { recursive: true });
      fs.writeFileSync(path.join(folder, '732829320.json'), JSON.stringify(entry));
    });
    return { input: both({ siren: '732829320' }) };
  },
  'documentMail.response': async () => ({ input: both({ id: await documentId('estimate', true) }) }),
  'reminders.list': async () => ({ input: both(undefined) }),
  'reminders.send': async () => {
    // One step a year before the due date (for an invoice not yet due) and one on it (for an overdue one): a step is due
    // whatever day the test runs; the customer gets an address.
    const step = { enabled: true, mode: 'proposed', subject: 'Facture {document_number}', body: 'À régler : {amount_due}' };
    const steps = [
      { ...step, offset_days: -365 },
      { ...step, offset_days: 0 },
    ];
    await same('PUT', '/api/settings/reminders', { steps });
    const id = await documentId('invoice', true);
    const invoice = await same('GET', `/api/documents/${id}`);
    await same('PUT', `/api/customers/${invoice.customer_id}`, { ...businessCustomer, email: 'compta@boulangerie-martin.fr' });
    await each((s) => keepPdf(s.server, id));
    return { input: both({ documentId: id }) };
  },
  'reminders.ofDocument': async () => ({ input: both({ id: await documentId('invoice', true) }) }),
  'reminders.settings': async () => ({ input: both(undefined) }),
  'reminders.saveSettings': async () => ({ input: both(await same('GET', '/api/settings/reminders')) }),
  'reminders.jobs': async () => ({ input: both(undefined) }),
  'taxes.list': async () => ({ input: both(undefined) }),
  'taxes.create': async () => ({ input: both({ title: 'TVA 8,5 %', rate: 8.5 }) }),
  'taxes.update': async () => {
    const created = await same('POST', '/api/taxes', { title: 'TVA 13 %', rate: 13 });
    return { input: both({ id: created.data.id, data: { title: 'TVA 13 % (DOM)', rate: 13 } }) };
  },
  'taxes.delete': async () => {
    const created = await same('POST', '/api/taxes', { title: 'TVA 1,05 %', rate: 1.05 });
    return { input: both({ id: created.data.id }) };
  },
  'units.list': async () => ({ input: both(undefined) }),
  'units.create': async () => ({ input: both({ name: `lot${++emails}` }) }),
  'units.delete': async () => {
    const created = await same('POST', '/api/units', { name: `colis${++emails}` });
    return { input: both({ id: created.data.id }) };
  },
  'einvoicing.settings': async () => ({ input: both(undefined) }),
  'einvoicing.saveSettings': async () => ({ input: both(await platformSettings()) }),
  'einvoicing.check': async () => {
    const settings = await platformSettings();
    await same('PUT', '/api/settings/einvoicing', settings);
    return { input: both(undefined) };
  },
  'einvoicing.ownDirectory': async () => ({ input: both(undefined) }),
  'einvoicing.checkOwnDirectory': async () => {
    await same('PUT', '/api/settings/einvoicing', await platformSettings());
    return { input: both(undefined) };
  },
  'onlinePayment.settings': async () => ({ input: both(undefined) }),
  'onlinePayment.saveSettings': async () => ({ input: both(STRIPE_KEYS) }),
  'onlinePayment.check': async () => {
    await same('PUT', '/api/settings/online-payment', STRIPE_KEYS);
    return { input: both(undefined) };
  },
  'onlinePayment.removeSettings': async () => {
    await same('PUT', '/api/settings/online-payment', STRIPE_KEYS);
    return { input: both(undefined) };
  },
  'emailSettings.get': async () => ({ input: both(undefined) }),
  'emailSettings.update': async () => ({ input: both(await same('GET', '/api/settings/email')) }),
  'emailSettings.sendTest': async () => ({ input: both(undefined) }),
  'emailSettings.sender': async () => ({ input: both(undefined) }),
  'emailSettings.resendSenderLink': async () => {
    await same('PUT', '/api/settings/email', { ...(await same('GET', '/api/settings/email')), sender_address: 'envoi@exemple.fr' });
    return { input: both(undefined) };
  },
  'emailSettings.confirmSender': async () => {
    await same('PUT', '/api/settings/email', { ...(await same('GET', '/api/settings/email')), sender_address: 'confirme@exemple.fr' });
    return { input: await each(async (s) => ({ token: senderToken(s, 'confirme@exemple.fr') })) };
  },
  'currencies.list': async () => ({ input: both(undefined) }),
  'currencies.create': async () => ({ input: both({ code: 'CHF', rate: '0.94' }) }),
  'currencies.update': async () => {
    const created = await same('POST', '/api/currencies', { code: 'USD', rate: '1.08' });
    return { input: both({ id: created.data.id, data: { rate: '1.1' } }) };
  },
  'currencies.delete': async () => {
    const created = await same('POST', '/api/currencies', { code: 'GBP', rate: '0.86' });
    return { input: both({ id: created.data.id }) };
  },
  'tags.list': async () => {
    await tagId();
    return { input: both({ scope: 'customer' }) };
  },
  'tags.create': async () => ({ input: both({ name: 'Prioritaire', color: 'red' }) }),
  'tags.update': async () => ({ input: both({ id: await tagId(), data: { name: `Renommée ${++emails}`, color: 'blue' } }) }),
  'tags.delete': async () => ({ input: both({ id: await tagId() }) }),
  'audit.list': async () => {
    await paymentOf();
    return { input: both({ page: 1 }) };
  },
  'audit.verify': async () => ({ input: both(undefined) }),
  // No closing yet on either side (they are made by the nightly job): an empty page, and the same 404 for n° 1.
  'audit.closings': async () => ({ input: both({ page: 1 }) }),
  'audit.exportClosing': async () => {
    // The scheduler's closing of the day just ended, run on each side's database (tomorrow closes today).
    const tomorrow = new Date(Date.now() + 86_400_000);
    for (const side of [fork, stock]) await withServerDb(side.server, (db) => closeAuditPeriods(db, tomorrow));
    return { input: both({ number: 1 }) };
  },
  'exports.fec': async () => {
    await paymentOf();
    return { input: both({ year: 2026 }) };
  },
  'exports.accounts': async () => ({ input: both(undefined) }),
  'exports.saveAccounts': async () => ({ input: both({ ...(await same('GET', '/api/exports/accounts')), services: '706100' }) }),
  'expenses.list': async () => {
    await expenseId();
    return { input: both({ status: 'paid' }) };
  },
  'expenses.export': async () => ({ input: both({ category: 'repas' }) }),
  'expenses.figures': async () => ({ input: both({ from: '2026-01-01', to: '2026-12-31' }) }),
  'reports.turnover': async () => {
    await documentId('invoice', true);
    return { input: both({ from: '2026-01-01', to: '2026-12-31', group: 'quarter' }) };
  },
  'reports.customers': async () => {
    await documentId('invoice', true);
    return { input: both({ from: '2026-01-01', to: '2026-12-31' }) };
  },
  'reports.items': async () => {
    await documentId('invoice', true);
    return { input: both({ from: '2026-01-01', to: '2026-12-31' }) };
  },
  'reports.tags': async () => {
    await documentId('invoice', true);
    return { input: both({ from: '2026-01-01', to: '2026-12-31' }) };
  },
  'reports.vat': async () => {
    await documentId('invoice', true);
    return { input: both({ from: '2026-01-01', to: '2026-12-31' }) };
  },
  'reports.vatOperations': async () => {
    await documentId('invoice', true);
    return { input: both({ from: '2026-01-01', to: '2026-12-31', line: '08', per_page: 1 }) };
  },
  'reports.receivables': async () => {
    await documentId('invoice', true);
    return { input: both(undefined) };
  },
  'reports.margin': async () => {
    await expenseId();
    return { input: both({ from: '2026-01-01', to: '2026-12-31' }) };
  },
  'reports.receipts': async () => {
    await paymentOf();
    return { input: both({ from: '2026-01-01', to: '2026-12-31' }) };
  },
  'reports.urssaf': async () => {
    await paymentOf();
    return { input: both({ from: '2026-01-01', to: '2026-12-31', group: 'month' }) };
  },
  'expenses.suppliers': async () => ({ input: both({ search: 'bou' }) }),
  'expenses.categories': async () => ({ input: both(undefined) }),
  'expenses.saveCategory': async () => ({ input: both({ label: 'Véhicule', account: '615500' }) }),
  'expenses.deleteCategory': async () => {
    await same('POST', '/api/expenses/categories', { code: 'a_supprimer', label: 'À supprimer', account: '658000' });
    return { input: both({ code: 'a_supprimer' }) };
  },
  'expenses.archiveCategory': async () => {
    await same('POST', '/api/expenses/categories', { code: 'a_archiver', label: 'À archiver', account: '658000' });
    return { input: both({ code: 'a_archiver', archived: true }) };
  },
  'expenses.get': async () => ({ input: both({ id: await expenseId() }) }),
  'expenses.create': async () => ({ input: both(expenseBody) }),
  'expenses.update': async () => ({ input: both({ id: await expenseId(), data: { ...expenseBody, status: 'unpaid' } }) }),
  'expenses.delete': async () => ({ input: both({ id: await expenseId() }) }),
  'expenses.attachReceipt': async () => ({ input: both({ id: await expenseId(), filename: 'ticket.pdf', data_url: tinyPdf }) }),
  'expenses.receipt': async () => {
    const id = await expenseId();
    await same('POST', `/api/expenses/${id}/receipt`, { filename: 'ticket.pdf', data_url: tinyPdf });
    return { input: both({ id }) };
  },
  'expenses.removeReceipt': async () => ({ input: both({ id: await expenseId() }) }),
  'expenses.importEinvoice': async () => {
    const xml = fs.readFileSync(path.resolve(import.meta.dirname, '../fixtures/einvoice/cii/CII_example3.xml'));
    return { input: both({ filename: 'CII_example3.xml', content_base64: xml.toString('base64') }) };
  },
  'bankAccounts.list': async () => ({ input: both(undefined) }),
  'bankAccounts.get': async () => ({ input: both({ id: (await bankAccount()).id }) }),
  'bankAccounts.reconciliation': async () => ({ input: both({ id: (await bankAccount()).id }) }),
  'bankAccounts.create': async () => ({ input: both({ name: 'Livret', iban: nextIban(), bic: 'BDFEFRPP' }) }),
  'bankAccounts.update': async () => {
    const { id, iban } = await bankAccount();
    return { input: both({ id, name: 'Compte pro', iban, default: true }) };
  },
  'bankAccounts.delete': async () => ({ input: both({ id: (await bankAccount()).id }) }),
  'bankAccounts.import': async () => {
    const { id, iban } = await bankAccount();
    const xml = camt053(iban, [{ date: '2026-03-05', amount: '120.00', label: 'VIR CLIENT' }]);
    return { input: both({ id, filename: 'releve.xml', content_base64: base64(xml) }) };
  },
  'bankTransactions.list': async () => ({ input: both(undefined) }),
  'bankTransactions.match': async () => {
    const { line: id, expense } = await bankLine();
    return { input: both({ id, matches: [{ kind: 'expense', id: expense, amount: 59.99 }] }) };
  },
  'bankTransactions.ignore': async () => ({ input: both({ id: (await bankLine()).line, reason: 'Frais personnels' }) }),
  'bankTransactions.candidates': async () => ({ input: both({ id: (await bankLine()).line, q: 'orange' }) }),
  'bankTransactions.unignore': async () => {
    const { line: id } = await bankLine();
    await same('POST', `/api/bank-transactions/${id}/ignore`, { reason: 'Frais personnels' });
    return { input: both({ id }) };
  },
  'bankTransactions.confirmSure': async () => ({ input: both({}) }),
  'recurringExpenses.list': async () => ({ input: both(undefined) }),
  'recurringExpenses.get': async () => ({ input: both({ id: await recurringId() }) }),
  'recurringExpenses.create': async () => ({ input: both(recurringBody) }),
  'recurringExpenses.update': async () => ({ input: both({ id: await recurringId(), data: { ...recurringBody, amount: 90 } }) }),
  'recurringExpenses.pause': async () => ({ input: both({ id: await recurringId(), paused: true }) }),
  'recurringExpenses.generate': async () => ({ input: both({ id: await recurringId() }) }),
  'recurringExpenses.delete': async () => ({ input: both({ id: await recurringId() }) }),
  'recurringInvoices.list': async () => ({ input: both(undefined) }),
  'recurringInvoices.get': async () => ({ input: both({ id: await recurringInvoiceId() }) }),
  'recurringInvoices.create': async () => ({ input: both(await recurringInvoiceBody()) }),
  'recurringInvoices.update': async () => {
    const id = await recurringInvoiceId();
    return { input: both({ id, data: { ...(await recurringInvoiceBody()), interval: 2 } }) };
  },
  'recurringInvoices.pause': async () => ({ input: both({ id: await recurringInvoiceId(), paused: true }) }),
  'recurringInvoices.generate': async () => ({ input: both({ id: await recurringInvoiceId() }) }),
  'recurringInvoices.delete': async () => ({ input: both({ id: await recurringInvoiceId() }) }),
  'appointments.list': async () => {
    await appointmentId();
    return { input: both({ from: '2026-10-01', to: '2026-10-31' }) };
  },
  'appointments.feed': async () => ({ input: both(undefined) }),
  'appointments.createFeed': async () => ({ input: both(undefined) }),
  'appointments.revokeFeed': async () => ({ input: both(undefined) }),
  'appointments.calendar': async () => {
    await appointmentId();
    const urls = await each(async (s) => (await s.owner.rest('POST', '/api/appointments/feed')).body.data.url as string);
    return { input: [{ token: urls[0].split('/').pop()?.replace('.ics', '') }, { token: urls[1].split('/').pop()?.replace('.ics', '') }] };
  },
  'appointments.bill': async () => {
    const customer = await customerId();
    const id = await appointmentId({ customer_id: customer, status: 'done' });
    return { input: both({ customer_id: customer, item_id: await itemId(), appointment_ids: [id] }) };
  },
  'appointments.get': async () => ({ input: both({ id: await appointmentId() }) }),
  'appointments.ics': async () => ({ input: both({ id: await appointmentId() }) }),
  'appointments.create': async () => ({ input: both(appointmentBody) }),
  'appointments.update': async () => ({ input: both({ id: await appointmentId(), data: { ...appointmentBody, date: '2026-10-26' } }) }),
  'appointments.delete': async () => ({ input: both({ id: await appointmentId() }) }),
  'appointments.invite': async () => {
    const customer = (await same('POST', '/api/customers', { name: 'Atelier Leroy', email: 'leroy@atelier.fr' })).data.id;
    return { input: both({ id: await appointmentId({ customer_id: customer }) }) };
  },
  'plans.list': async () => ({ input: both(undefined) }),
  'subscription.get': async () => ({ input: both(undefined) }),
  'subscription.invoices': async () => ({ input: both(undefined) }),
  // No payment provider here: the plan applies at once. A paid plan first, whatever the samples before left.
  'subscription.checkout': async () => {
    await each((s) => s.owner.rest('POST', '/api/subscription/checkout', { plan: 'solo', period: 'month' }));
    return { input: both({ plan: 'team', period: 'year' }) };
  },
  'subscription.cancel': async () => {
    await each((s) => s.owner.rest('POST', '/api/subscription/checkout', { plan: 'team', period: 'month' }));
    await each((s) => s.owner.rest('POST', '/api/subscription/resume'));
    return { input: both(undefined) };
  },
  'subscription.resume': async () => {
    await each((s) => s.owner.rest('POST', '/api/subscription/checkout', { plan: 'team', period: 'month' }));
    await each((s) => s.owner.rest('POST', '/api/subscription/cancel'));
    return { input: both(undefined) };
  },
  // A smaller plan asked for: it waits for the period's end, and is then dropped.
  'subscription.cancelChange': async () => {
    await each((s) => s.owner.rest('POST', '/api/subscription/checkout', { plan: 'team', period: 'year' }));
    await each((s) => s.owner.rest('POST', '/api/subscription/checkout', { plan: 'solo', period: 'month' }));
    return { input: both(undefined) };
  },
};

/** Enumerated from the router, so that a new procedure is covered (and fails until it has a sample). */
const procedures = Object.keys(appRouter._def.procedures as Record<string, unknown>).filter((p) => p.includes('.'));

async function compare(procedure: string, call: Call) {
  const a = await send(fork, [procedure], [call.input[0]], { cookie: call.cookies ? (call.cookies[0] ?? null) : undefined });
  const b = await send(stock, [procedure], [call.input[1]], { cookie: call.cookies ? (call.cookies[1] ?? null) : undefined });
  expect(b.status, `${procedure}: stock adapter`).toBe(a.status);
  expect(b.body).toEqual(a.body);
  return a;
}

describe('the /api/trpc fork answers as tRPC’s stock adapter', () => {
  it('enumerates the procedures from the router', () => {
    expect(procedures.length).toBeGreaterThan(60);
  });

  it.each(procedures)('%s: a success', async (procedure) => {
    const sample = samples[procedure];
    if (!sample) throw new Error(`${procedure} has no success sample in tests/integration/trpc-fork-parity.test.ts: add one`);
    const answer = await compare(procedure, await sample());
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  });

  it.each(procedures)('%s: bad input, and no session', async (procedure) => {
    // Logout would end the owner's session that the next tests use: it gets sessions of its own.
    const cookies = procedure === 'auth.logout' ? (await samples['auth.logout']?.())?.cookies : undefined;
    await compare(procedure, { input: both(42), cookies });
    await compare(procedure, { input: both({ id: 'x', data: [], key: 1, q: 7, email: 3 }), cookies });
    await compare(procedure, { input: both(undefined), cookies: [undefined, undefined] });
  });

  it('a procedure that does not exist, and a body that is not JSON', async () => {
    for (const procedure of ['nope.nothing', 'auth.login', 'auth.logout', 'customers.create']) {
      const requests = [fork, stock].map((s) =>
        fetch(`${s.trpcUrl}/${procedure}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', cookie: procedure === 'auth.logout' ? '' : (s.owner.cookie ?? '') },
          body: '{"json": nope',
        }),
      );
      const [a, b] = await Promise.all(requests.map(async (r) => (await r).text().then(masked)));
      expect(b).toEqual(a);
    }
    const a = await send(fork, ['nope.nothing'], [undefined]);
    const b = await send(stock, ['nope.nothing'], [undefined]);
    expect([b.status, b.body]).toEqual([a.status, a.body]);
  });

  it('a query sent as a mutation, and the reverse: the one known difference, kept on purpose', async () => {
    // The fork answers 404 (tests/integration/trpc-door.test.ts: no such procedure for that method); tRPC's adapter
    // answers 405. Pinned both ways, so that a change on either side is seen.
    for (const [procedure, method] of [
      ['auth.me', 'POST'],
      ['auth.logout', 'GET'],
    ] as const) {
      const a = await send(fork, [procedure], [undefined], { method, cookie: null });
      const b = await send(stock, [procedure], [undefined], { method, cookie: null });
      expect(a.status).toBe(404);
      expect(b.status).toBe(405);
    }
  });

  it('batches of queries and of mutations, successes and errors together', async () => {
    const id = await customerId();
    const queries = ['auth.me', 'settings.get', 'customers.get', 'customers.get', 'tags.list'];
    const queryInputs = [undefined, { key: 'document' }, { id }, { id: 999999 }, { scope: 'nope' }];
    const a = await send(fork, queries, queryInputs);
    const b = await send(stock, queries, queryInputs);
    expect(a.status).toBe(207);
    expect([b.status, b.body]).toEqual([a.status, a.body]);
    const mutations = ['tags.create', 'units.create', 'taxes.create'];
    const mutationInputs = [{ name: 'Lot groupé' }, { name: 'palette' }, { title: '', rate: -1 }];
    // The one deliberate difference: the app takes writes one per request, the stock adapter in a batch.
    const c = await send(fork, mutations, mutationInputs);
    expect(c.status).toBe(400);
    expect(c.body).toEqual({ messages: 'Les modifications s’envoient une par requête, pas en lot' });
    const ok = await send(fork, ['auth.me', 'system.version'], [undefined, undefined]);
    const okStock = await send(stock, ['auth.me', 'system.version'], [undefined, undefined]);
    expect(ok.status).toBe(200);
    expect([okStock.status, okStock.body]).toEqual([ok.status, ok.body]);
  });
});
