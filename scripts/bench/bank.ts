// A 10,000-line bank statement (camt.053, ~7 MB) imported on the built server against an organisation of 12,000
// documents, then « Tout valider »: prints the import's and the confirmation's durations, what was matched, and the
// server's event-loop delay meanwhile. Asserts nothing about time.
import SQLite from 'better-sqlite3';
import { seedDirectly } from './reports';
import { benchOwner, startBuiltServer } from './built-server';
import { eventLoopDelay, METRICS_TOKEN } from './heavy';
import { camt053, type GeneratedEntry } from '../../tests/helpers/bank-statements';
import { sellerIdentity } from '../../tests/helpers/documents';

const LINES = Number(process.env.BENCH_BANK_LINES ?? 10_000);
const DOCUMENTS = Number(process.env.BENCH_BANK_DOCUMENTS ?? 12_000);
const IBAN = 'FR7630001007941234567890185';

export async function benchBank(): Promise<void> {
  console.log('\n## Bank statement import and matching (built server)');
  process.env.METRICS_TOKEN = METRICS_TOKEN;
  process.env.HEAVY_TASK_SECONDS ??= '900';
  const server = await startBuiltServer();
  try {
    const { client, cookie } = await benchOwner(server.url, 'bank');
    const organizationId = (await client.auth.me.query()).organization.id;
    const rest = async (method: string, path: string, body?: unknown) => {
      const answer = await fetch(`${server.url}${path}`, {
        method,
        headers: { cookie, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await answer.json()) as { data: Record<string, unknown>; messages?: unknown };
      if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(json)}`);
      return json;
    };
    await rest('PUT', '/api/organization', sellerIdentity);
    await seedDirectly(server.dbPath, organizationId, DOCUMENTS);
    const raw = new SQLite(server.dbPath, { readonly: true });
    const open = raw
      .prepare(
        `SELECT number, customer_name, amount_due FROM documents WHERE organization_id = ? AND type = 'invoice' AND status IN ('unpaid', 'partial') AND amount_due > 0 ORDER BY date`,
      )
      .all(organizationId)
      // A bank pays whole cents: the seeded amounts in ten-thousandths that are not are left out.
      .filter((row) => (row as { amount_due: number }).amount_due % 100 === 0) as {
      number: string;
      customer_name: string;
      amount_due: number;
    }[];
    raw.close();

    // Each open invoice paid once, its number in the label for most, only its customer's name for some; the rest of
    // the lines are the day's card payments and debits, matching nothing.
    const entries: GeneratedEntry[] = [];
    const paid = Math.min(open.length, Math.floor(LINES * 0.6));
    // A customer's name alone tells the invoice only when no other open invoice of theirs has the same amount (the
    // seeded totals repeat): those lines name the customer only, the others carry the number too.
    const sameAmount = new Map<string, number>();
    for (const invoice of open) {
      const key = `${invoice.customer_name}|${invoice.amount_due}`;
      sameAmount.set(key, (sameAmount.get(key) ?? 0) + 1);
    }
    let nameOnly = 0;
    for (let i = 0; i < paid; i++) {
      const invoice = open[i] as (typeof open)[number];
      const amount = (invoice.amount_due / 10_000).toFixed(2);
      const byName = i % 4 === 3 && sameAmount.get(`${invoice.customer_name}|${invoice.amount_due}`) === 1;
      if (byName) nameOnly++;
      const label = byName
        ? `VIR SEPA ${invoice.customer_name.toUpperCase()}`
        : `VIR SEPA ${invoice.customer_name.toUpperCase()} FACT ${invoice.number}`;
      entries.push({ date: '2026-11-20', amount, label, counterparty: invoice.customer_name });
    }
    for (let i = entries.length; i < LINES; i++)
      entries.push({ date: '2026-11-21', amount: `-${(5 + (i % 300) / 7).toFixed(2)}`, label: `CB COMMERCE ${i % 97}` });
    const xml = camt053(IBAN, entries);
    const account = (await rest('POST', '/api/bank-accounts', { name: 'Compte courant', iban: IBAN })).data as { id: number };

    await eventLoopDelay(server.url);
    let started = performance.now();
    const imported = (
      await rest('POST', `/api/bank-accounts/${account.id}/import`, {
        filename: 'releve.xml',
        content_base64: Buffer.from(xml).toString('base64'),
      })
    ).data as { imported: number; matched: number; suggestions: number };
    const importMs = performance.now() - started;
    const importLoop = await eventLoopDelay(server.url);
    started = performance.now();
    const confirmed = (await rest('POST', '/api/bank-transactions/confirm-sure', { account_id: account.id })).data as {
      confirmed: number;
      skipped: number;
    };
    const confirmMs = performance.now() - started;
    const confirmLoop = await eventLoopDelay(server.url);
    started = performance.now();
    const again = (
      await rest('POST', `/api/bank-accounts/${account.id}/import`, {
        filename: 'releve.xml',
        content_base64: Buffer.from(xml).toString('base64'),
      })
    ).data as {
      imported: number;
      duplicates: number;
    };
    const againMs = performance.now() - started;

    console.log(
      `\n${LINES.toLocaleString('en')}-line camt.053 (${(xml.length / 1e6).toFixed(1)} MB) against ${DOCUMENTS.toLocaleString('en')} documents (${open.length} open invoices), ${paid} lines paying one each (${nameOnly} naming only the customer)`,
    );
    console.log('| step | duration s | result | event loop p99 ms | max ms |');
    console.log('|---|---:|---|---:|---:|');
    console.log(
      `| import (read in a worker, fingerprints, suggestions, writes) | ${(importMs / 1000).toFixed(1)} | ${imported.imported} imported, ${imported.suggestions} with a suggestion, ${imported.matched} sure | ${importLoop.p99.toFixed(1)} | ${importLoop.max.toFixed(1)} |`,
    );
    console.log(
      `| « Tout valider » | ${(confirmMs / 1000).toFixed(1)} | ${confirmed.confirmed} confirmed (${((confirmed.confirmed / paid) * 100).toFixed(1)} % of the seeded payments), ${confirmed.skipped} left to the user | ${confirmLoop.p99.toFixed(1)} | ${confirmLoop.max.toFixed(1)} |`,
    );
    console.log(
      `| the same file again | ${(againMs / 1000).toFixed(1)} | ${again.imported} imported, ${again.duplicates} already there | | |`,
    );
  } finally {
    await server.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchBank();
