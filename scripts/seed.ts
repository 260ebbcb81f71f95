// `npm run seed`: a demo organisation's year (identity, customers, items, ~400 documents with payments), written
// through the typed tRPC client over HTTP (never by SQL), so the data passes every rule the app enforces. Targets the
// running server at SEED_URL (default http://localhost:$PORT); when none answers, starts the server in this process
// on DATABASE_URL for the time of the seed. `npm run seed -- --documents 100 --seed 7` changes the size or the data.
// Run again, it fills a fresh demo organisation (demo+…@facturier.fr): numbering is chronological, a year can't be
// seeded twice into one organisation. With an API key (`--key fk_live_…` or FACTURIER_API_KEY, a « Lecture et écriture »
// key from Paramètres → API), it fills that key's organisation instead, which must hold no customer or document yet.
import { parseArgs } from 'node:util';
import { TRPCClientError } from '@trpc/client';
import { createApiClient, type ApiClient } from './api-client';
import { loadEnv } from '../src/server/env';
import { DEFAULT_DOCUMENTS, DEFAULT_SEED, seedOrganisation } from './seed/index';
import { missingMentions } from '../src/shared/legal-mentions';

export const DEMO_OWNER = {
  first_name: 'Claire',
  last_name: 'Fontaine',
  email: 'demo@facturier.fr',
  password: 'facturier-demo',
  organization: 'Atelier Fontaine SARL',
};

async function reachable(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/api/version`, { signal: AbortSignal.timeout(1500) })).ok;
  } catch {
    return false;
  }
}

/** Logs the demo owner in, registering them on a fresh database. */
export async function loginOrRegister(client: ApiClient) {
  try {
    return { user: await client.auth.login.mutate({ email: DEMO_OWNER.email, password: DEMO_OWNER.password }), created: false };
  } catch (error) {
    if (!(error instanceof TRPCClientError) || error.data?.httpStatus !== 401) throw error;
    return { user: await client.auth.register.mutate(DEMO_OWNER), created: true };
  }
}

/** Whether the organisation already has customers or documents. */
async function hasData(client: ApiClient): Promise<boolean> {
  const [customers, documents] = await Promise.all([
    client.customers.list.query({ per_page: 1 }),
    client.documents.list.query({ per_page: 1 }),
  ]);
  return customers.total + documents.total > 0;
}

/**
 * Fills the organisation of an API key. The key may not change the organisation's identity, so the
 * organisation keeps its own; it must be empty, as numbering is chronological.
 */
export async function seedWithKey(baseUrl: string, apiKey: string, options: { documents: number; seed: number }) {
  const { client } = createApiClient(baseUrl, { apiKey });
  const [user, organization] = await Promise.all([client.auth.me.query(), client.organization.get.query()]);
  if (await hasData(client)) {
    throw new Error(`« ${user.organization.name} » a déjà des clients ou des documents : le seed avec une clé remplit une entreprise vide`);
  }
  // Invoices are issued only with the seller's legal mentions, which a key may not write: said now, not mid-seed.
  const missing = missingMentions({
    type: 'invoice',
    organization,
    settings: { late_penalty_rate: 0, recovery_indemnity: 40, escompte: '' },
    customer: null,
    date: '2026-01-01',
    maturity: '2026-01-31',
    items: [{ item: 'Conseil', taxes: [{ rate: 20 }] }],
  }).filter((mention) => mention.includes('Infos de l’entreprise'));
  if (missing.length > 0) {
    throw new Error(`complétez d’abord Paramètres → Infos de l’entreprise (une clé d’API ne peut pas les écrire) : ${missing.join(' ; ')}`);
  }
  console.log(`Remplissage de « ${user.organization.name} » avec la clé d’API : ${options.documents} documents (graine ${options.seed})…`);
  const summary = await seedOrganisation(client, { ...options, identity: false });
  console.log(`  ${summary.customers} clients, ${summary.items} articles, ${summary.documents} documents, ${summary.payments} paiements`);
  return summary;
}

async function main() {
  const { values } = parseArgs({ options: { documents: { type: 'string' }, seed: { type: 'string' }, key: { type: 'string' } } });
  const documents = Number(values.documents ?? DEFAULT_DOCUMENTS);
  const seed = Number(values.seed ?? DEFAULT_SEED);
  if (!Number.isInteger(documents) || documents < 1 || !Number.isInteger(seed))
    throw new Error('--documents et --seed attendent des nombres entiers');
  const env = loadEnv();
  let baseUrl = process.env.SEED_URL ?? `http://localhost:${env.port}`;
  let stop: (() => Promise<void>) | undefined;
  if (!(await reachable(baseUrl))) {
    const { createApp } = await import('../src/server/app');
    // Demo data, issued by the hundred: their PDFs are kept at their first download rather than all printed now.
    const app = await createApp({ ...env, port: 0, logLevel: 'silent', planLimits: false }, { archiveOnIssue: false });
    baseUrl = await app.listen();
    stop = () => app.close();
    console.log(`Aucun serveur sur ${process.env.SEED_URL ?? `http://localhost:${env.port}`} : serveur temporaire sur ${env.databasePath}`);
  }
  try {
    const apiKey = values.key ?? process.env.FACTURIER_API_KEY;
    if (apiKey) return await seedWithKey(baseUrl, apiKey, { documents, seed });
    let { client } = createApiClient(baseUrl);
    let { user } = await loginOrRegister(client);
    let email = DEMO_OWNER.email;
    if (await hasData(client)) {
      // Already seeded: a fresh organisation, so that this run's year is numbered from 1 too.
      email = `demo+${new Date().toISOString().replace(/\D/g, '').slice(0, 14)}@facturier.fr`;
      ({ client } = createApiClient(baseUrl));
      user = await client.auth.register.mutate({ ...DEMO_OWNER, email });
      console.log(`Le compte ${DEMO_OWNER.email} a déjà ses données : nouvelle organisation de démonstration.`);
    }
    // Demo data goes past the free plan's documents a month: the demo organisation takes Équipe, applied at once on a
    // server without payment provider (with Stripe, run the server with PLAN_LIMITS=off to seed).
    await client.subscription.checkout.mutate({ plan: 'team', period: 'year' }).catch(() => undefined);
    console.log(`Remplissage de « ${user.organization.name} » : ${documents} documents (graine ${seed})…`);
    const summary = await seedOrganisation(client, { seed, documents });
    console.log(
      `  ${summary.customers} clients, ${summary.items} articles, ${summary.documents} documents, ${summary.payments} paiements ` +
        `en ${(summary.ms.total / 1000).toFixed(1)} s (${summary.requests} appels, documents : ${(summary.ms.documents / 1000).toFixed(1)} s)`,
    );
    console.log('Compte de démonstration :');
    console.log(`  Entreprise : ${user.organization.name}`);
    console.log(`  E-mail     : ${email}`);
    console.log(`  Mot de passe : ${DEMO_OWNER.password}`);
  } finally {
    await stop?.();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((error) => {
    console.error(`Le seed a échoué : ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
