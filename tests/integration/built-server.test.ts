import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newUser, Session } from '../helpers/clients';
import { type BuiltServer, spawnBuiltServer, stopBuiltServer } from '../helpers/built-server';
import { removeTestEnv, testEnv } from '../helpers/server';
import { defined } from '../../src/shared/defined';

/** What `npm start` runs: the Vite-bundled server (with the tRPC build patch), started by plain node. */
describe('the built server process', () => {
  const setup = testEnv({ LOG_LEVEL: 'info' });
  let server: BuiltServer;
  let url: string;
  const output = () => server.output();

  beforeAll(async () => {
    server = await spawnBuiltServer({ ...setup.vars, NODE_ENV: 'production' });
    url = server.url;
  }, 120_000);

  afterAll(async () => {
    await stopBuiltServer(server);
    removeTestEnv(setup.env, setup.dataDir);
  });

  it('serves both doors, logs one line per request, and stops cleanly on SIGTERM', async () => {
    const session = new Session(url);
    const user = await session.trpc().auth.register.mutate(newUser());
    const [viaRest, viaBatch] = await Promise.all([session.rest('GET', '/api/auth'), session.trpc().auth.me.query()]);
    expect(viaRest.body).toEqual(user);
    expect(viaBatch).toEqual(user);
    const error = await session.rest('POST', '/api/auth/login', '{oops', { 'content-type': 'application/json' });
    expect(error).toMatchObject({ status: 400, body: { messages: 'Le corps de la requête n’est pas un JSON valide' } });

    const logLine = output()
      .split('\n')
      .find((l) => l.includes('"path":"/api/auth"'));
    expect(JSON.parse(defined(logLine, 'logLine'))).toMatchObject({ method: 'GET', path: '/api/auth', status: 200 });
    expect(JSON.parse(defined(logLine, 'logLine')).ms).toBeTypeOf('number');

    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
    expect(output()).toContain('SIGTERM reçu');
  });
});
