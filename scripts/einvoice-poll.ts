/**
 * `npm run einvoice:poll`: reads the approved platform's lifecycle statuses of every transmitted invoice and records
 * the new ones now. The same `einvoice-poll` job the scheduler runs every quarter of an hour, under its
 * lease. Same environment as the server (DATA_DIR, DATABASE_URL).
 */
import { loadEnv } from '../src/server/env';
import { createApp } from '../src/server/app';

const app = await createApp({ ...loadEnv(process.env), port: 0, host: '127.0.0.1' }, { scheduler: false });
try {
  const [result] = await app.scheduler.runDue(['einvoice-poll']);
  console.log(result ? `${result.ran ? '✓' : '–'} ${result.message}` : 'Tâche einvoice-poll introuvable');
} finally {
  await app.close();
}
