// `npm run seed`: a demo organisation, written through the typed tRPC client over HTTP (never by SQL), so the
// data passes every rule the app enforces. Targets the running server at SEED_URL (default http://localhost:$PORT);
// when none answers, starts the server in this process on DATABASE_URL for the time of the seed.
import { TRPCClientError } from '@trpc/client';
import { createApiClient, type ApiClient } from './api-client';
import { loadEnv } from '../src/server/env';

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

async function main() {
  const env = loadEnv();
  let baseUrl = process.env.SEED_URL ?? `http://localhost:${env.port}`;
  let stop: (() => Promise<void>) | undefined;
  if (!(await reachable(baseUrl))) {
    const { createApp } = await import('../src/server/app');
    const app = await createApp({ ...env, port: 0, logLevel: 'silent' });
    baseUrl = await app.listen();
    stop = () => app.close();
    console.log(`Aucun serveur sur ${process.env.SEED_URL ?? `http://localhost:${env.port}`} : serveur temporaire sur ${env.databasePath}`);
  }
  try {
    const { client } = createApiClient(baseUrl);
    const { user, created } = await loginOrRegister(client);
    console.log(created ? 'Compte de démonstration créé.' : 'Compte de démonstration déjà présent : connecté.');
    console.log(`  Entreprise : ${user.organization.name}`);
    console.log(`  E-mail     : ${DEMO_OWNER.email}`);
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
