// `npm run jobs:run`: for an operator, runs the scheduler's due work now on DATABASE_URL (recurring expenses…), taking
// each job's lease like the server does, so it never runs a job at the same time as a running server.
import { loadEnv } from '../src/server/env';
import { openDatabase } from '../src/server/db/connection';
import { migrateToLatest } from '../src/server/db/migrate';
import { Scheduler } from '../src/server/scheduler/scheduler';
import { JOBS } from '../src/server/scheduler/jobs';
import { createMailer } from '../src/server/mail/mailer';

const env = loadEnv();
const connection = openDatabase(env.databasePath);
try {
  await migrateToLatest(connection.db);
  for (const result of await new Scheduler(connection.db, JOBS, undefined, undefined, {
    env,
    mailer: createMailer({ smtpUrl: env.smtpUrl, from: env.mailFrom, dataDir: env.dataDir }),
  }).runDue())
    console.log(`${result.ran ? '✓' : '–'} ${result.job} : ${result.message}`);
} finally {
  await connection.close();
}
