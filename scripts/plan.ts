// `npm run plan -- --org ID --plan NAME --until YYYY-MM-DD`: for an operator (self-hosted, no payment provider, or a
// gift), grants an organisation of DATABASE_URL a plan until a date; `--plan free` takes it back at once.
import { parseArgs } from 'node:util';
import { loadEnv } from '../src/server/env';
import { openDatabase } from '../src/server/db/connection';
import { migrateToLatest } from '../src/server/migrate';
import { organizationExists } from '../src/server/db/queries/subscriptions';
import { grantPlan } from '../src/server/services/subscriptions';
import { todayIso } from '../src/server/services/document-record';
import { formatDateLong } from '../src/shared/format';
import { PLANS } from '../src/shared/plans';
import { planIdSchema } from '../src/shared/schemas/plan';

const USAGE = 'Usage : npm run plan -- --org ID --plan free|solo|team --until AAAA-MM-JJ';

function refuse(message: string): never {
  console.error(`${message}\n${USAGE}`);
  process.exit(2);
}

let values: { org?: string; plan?: string; until?: string };
try {
  ({ values } = parseArgs({ options: { org: { type: 'string' }, plan: { type: 'string' }, until: { type: 'string' } }, strict: true }));
} catch (error) {
  refuse(`Option non reconnue : ${(error as Error).message}`);
}
const organizationId = Number(values.org);
if (!Number.isInteger(organizationId) || organizationId <= 0) refuse('--org : attendu le numéro (entier) d’une organisation');
const plan = planIdSchema.safeParse(values.plan);
if (!plan.success) refuse(`--plan : formule inconnue « ${values.plan ?? ''} » (free, solo ou team)`);
const until = values.until ?? '';
if (plan.data !== 'free') {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(until) || formatDateLong(until) === '') refuse('--until : attendu une date AAAA-MM-JJ');
  if (until < todayIso()) refuse(`--until : la date ${until} est déjà passée`);
}

const env = loadEnv();
const connection = openDatabase(env.databasePath);
try {
  await migrateToLatest(connection.db);
  if (!(await organizationExists(connection.db, { organizationId }))) refuse(`Aucune organisation n° ${organizationId} dans cette base`);
  await grantPlan(connection.db, { organizationId, plan: plan.data, until });
  console.log(
    plan.data === 'free'
      ? `Organisation n° ${organizationId} : formule Gratuit.`
      : `Organisation n° ${organizationId} : formule ${PLANS[plan.data].name} jusqu’au ${formatDateLong(until)} inclus.`,
  );
} finally {
  await connection.close();
}
