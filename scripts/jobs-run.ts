// `npm run jobs:run`: for an operator, runs the scheduler's due work now on DATABASE_URL (recurring expenses, payment
// reminders, e-invoice statuses…), taking each job's lease like the server does, so it never runs a job at the same
// time as a running server. `npm run jobs:run -- einvoice-poll` runs only the jobs named.
// The app is built as the server does (mailer, PDF printing, platform), on a loopback port of its own: a PDF not kept
// yet is printed from its public page.
import { loadEnv } from '../src/server/env';
import { createApp } from '../src/server/app';

const only = process.argv.slice(2);
const env = loadEnv();
const app = await createApp({ ...env, port: 0, host: '127.0.0.1' }, { scheduler: false });
try {
  await app.listen();
  for (const result of await app.scheduler.runDue(only.length > 0 ? only : undefined))
    console.log(`${result.ran ? '✓' : '–'} ${result.job} : ${result.message}`);
} finally {
  await app.close();
}
