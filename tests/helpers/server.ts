import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEnv } from '../../src/server/env';
import { createApp, type App } from '../../src/server/app';

export interface TestServer {
  url: string;
  dataDir: string;
  dbPath: string;
  app: App;
  close(): Promise<void>;
}

/** The real server, in this process, on an ephemeral port with a fresh SQLite file in a temporary folder. */
export async function startTestServer(opts: { env?: Record<string, string> } = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'facturier-test-'));
  const dbPath = path.join(dataDir, 'test.db');
  const env = loadEnv({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: `file:${dbPath}`,
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...opts.env,
  });
  const app = await createApp(env);
  const url = await app.listen();
  return {
    url,
    dataDir,
    dbPath,
    app,
    async close() {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
