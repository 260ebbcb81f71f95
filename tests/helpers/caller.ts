import { createApp } from '../../src/server/app';
import { createContextInner, type AppDeps } from '../../src/server/context';
import { validateSessionToken } from '../../src/server/auth/sessions';
import { createCaller } from '../../src/server/routers/_app';
import { newUser } from './clients';
import { removeTestEnv, testEnv } from './server';

export type Caller = ReturnType<typeof createCaller>;

export interface TestApp {
  deps: AppDeps;
  /** A caller with no session, as a visitor. */
  anonymous(): Caller;
  /** Registers a new user and organisation; the caller acts in their session. */
  signUp(overrides?: Parameters<typeof newUser>[0]): Promise<{ caller: Caller; organizationId: number; userId: number }>;
  close(): Promise<void>;
}

/**
 * The app's procedures called in this process through tRPC's createCaller, on a real, fresh SQLite file: for tests of
 * services and routers, where HTTP would only add time. The doors (REST paths, /api/trpc, cookies, status codes) keep
 * their own tests over HTTP with startTestServer.
 */
export async function startTestApp(): Promise<TestApp> {
  const { env, dataDir } = testEnv();
  const app = await createApp(env, { archiveOnIssue: false }); // never listens: no port, no socket, no page to print
  const deps = app.deps;
  return {
    deps,
    anonymous: () => createCaller(createContextInner(deps)),
    async signUp(overrides = {}) {
      let token: string | undefined;
      const visitor = createCaller(
        createContextInner(deps, {
          setCookie: (header) => {
            token = /^session=([^;]+)/.exec(header)?.[1] ?? token;
          },
        }),
      );
      const user = await visitor.auth.register(newUser(overrides));
      const found = token ? await validateSessionToken(deps.db, token) : null;
      if (!found) throw new Error('registration gave no session');
      const { session } = found;
      return { caller: createCaller(createContextInner(deps, { session })), organizationId: session.organizationId, userId: user.id };
    },
    async close() {
      await app.close();
      removeTestEnv(env, dataDir);
    },
  };
}
