import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listVatLedger, listVatLedgerDays } from '../../src/server/db/queries/vat-ledger';
import { rebuildVatLedger, refreshVatLedger } from '../../src/server/services/vat-ledger';
import { vatReportFromLedger } from '../../src/server/services/vat-report';
import { vatOperationsPage } from '../../src/server/services/vat-operations';
import { VAT_OPERATION_LINES } from '../../src/shared/schemas/vat-operations';
import { add, toStoredUnits, ZERO, type Money } from '../../src/shared/money';
import { vatReport } from '../../src/server/services/vat-return';
import { withServerDb } from '../helpers/database';
import { startTestServer, type TestServer } from '../helpers/server';
import { registered, type Session } from '../helpers/clients';
import { businessCustomer, line, readyToInvoice, sellerIdentity } from '../helpers/documents';

/** One write of the random sequence; `pick` chooses among what it applies to. */
type Step =
  | { kind: 'invoice' | 'estimate'; day: number; amount: number; rate: number; services: boolean; untaxed: boolean; eu: boolean }
  | { kind: 'expense'; day: number; amount: number; nature: 'goods' | 'services' | 'asset'; paid: boolean; reverse: boolean }
  | { kind: 'project'; day: number; amount: number; services: boolean; paid: boolean }
  | {
      kind: 'pay' | 'payAll' | 'reverse' | 'credit' | 'cancel' | 'deposit' | 'final' | 'payExpense' | 'deleteExpense' | 'debits' | 'read';
      pick: number;
      day: number;
      amount: number;
    };

const day = fc.integer({ min: 1, max: 60 });
const sale = fc.record({
  kind: fc.constantFrom('invoice' as const, 'estimate' as const),
  day,
  amount: fc.integer({ min: 1, max: 900 }),
  rate: fc.constantFrom(20, 10, 5.5),
  services: fc.boolean(),
  untaxed: fc.boolean(),
  eu: fc.boolean(),
});
const expense = fc.record({
  kind: fc.constant('expense' as const),
  day,
  amount: fc.integer({ min: 2, max: 900 }),
  nature: fc.constantFrom('goods' as const, 'services' as const, 'asset' as const),
  paid: fc.boolean(),
  reverse: fc.boolean(),
});
/** An estimate, its deposit invoice (paid or not), then the final invoice that deducts it. */
const project = fc.record({
  kind: fc.constant('project' as const),
  day,
  amount: fc.integer({ min: 10, max: 900 }),
  services: fc.boolean(),
  paid: fc.boolean(),
});
const change = fc.record({
  kind: fc.constantFrom(
    'pay' as const,
    'payAll' as const,
    'reverse' as const,
    'credit' as const,
    'cancel' as const,
    'deposit' as const,
    'final' as const,
    'payExpense' as const,
    'deleteExpense' as const,
    'debits' as const,
    'read' as const,
  ),
  pick: fc.nat(),
  day,
  amount: fc.integer({ min: 1, max: 400 }),
});
const steps = fc.array(fc.oneof(sale, expense, project, change, change), { minLength: 4, maxLength: 16 });

/** Day `n` from 2026-10-01 (October and November). */
const dateOf = (n: number) => new Date(Date.UTC(2026, 9, n)).toISOString().slice(0, 10);
const PERIODS = [
  { from: '2026-10-01', to: '2026-10-31' },
  { from: '2026-11-01', to: '2026-11-30' },
  { from: '2026-10-15', to: '2026-11-14' },
  { from: '2026-01-01', to: '2026-12-31' },
];

interface Doc {
  id: number;
  type: string;
  number: string | null;
  amount_due: number;
}

interface World {
  session: Session;
  customers: { france: number; eu: number };
  categories: Record<'goods' | 'services' | 'asset', string>;
  payments: Map<number, number[]>;
  expenses: number[];
  debits: boolean;
  /** Days since 2026-10-01: documents are numbered in date order, so each step moves it on by 0 to 3 days. */
  clock: number;
}

let server: TestServer;
beforeAll(async () => {
  // Each run (and each shrinking step) registers a new business.
  server = await startTestServer({ env: { REGISTER_MAX_PER_HOUR: '100000' } });
});
afterAll(async () => {
  await server.close();
});

/** Moves a converted draft to a day, then issues it; a refused write writes nothing, as it should. */
async function issueOn(session: Session, id: number, date: string) {
  const draft = (await session.rest('GET', `/api/documents/${id}`)).body;
  const maturity = draft.type === 'credit' ? null : date;
  await session.rest('PUT', `/api/documents/${id}`, { ...draft, date, maturity });
  await session.rest('POST', `/api/documents/${id}/issue`);
}

async function apply(w: World, step: Step): Promise<void> {
  const { session } = w;
  w.clock = Math.min(60, w.clock + (step.day % 4));
  const today = dateOf(w.clock);
  const all = async () => (await session.rest('GET', '/api/documents?per_page=100')).body.data as Doc[];
  const pick = <T>(list: T[], n: number): T | undefined => list[n % Math.max(1, list.length)];
  switch (step.kind) {
    case 'invoice':
    case 'estimate': {
      const kind = step.services ? 'service' : 'goods';
      const item = step.untaxed
        ? { item: 'Export', quantity: 1, unit_price: step.amount, taxes: [], kind }
        : line('Article', 1, step.amount, step.rate, { kind });
      const created = await session.rest('POST', '/api/documents', {
        type: step.kind,
        customer_id: step.eu ? w.customers.eu : w.customers.france,
        date: today,
        vat_exemption: step.untaxed ? 'Exonération de TVA, art. 261-4-4° du CGI' : '',
        items: [item, line('Accessoire', 2, 7.35, 20, { kind: 'goods' })],
      });
      if (created.status < 300) await session.rest('POST', `/api/documents/${created.body.data.id}/issue`);
      return;
    }
    case 'expense': {
      const vat = Math.round(step.amount * 16.67) / 100;
      const created = await session.rest('POST', '/api/expenses', {
        date: today,
        supplier: step.reverse ? 'Holzwerk GmbH' : 'Fournisseur',
        supplier_vat_number: step.reverse ? 'DE123456789' : undefined,
        category: w.categories[step.nature],
        label: 'Achat',
        amount: step.amount,
        reverse_charge: step.reverse ? (step.nature === 'services' ? 'services' : 'goods') : undefined,
        vat: [{ rate: 20, amount: vat }],
        payment_method: 'transfer',
        status: step.paid ? 'paid' : 'unpaid',
        paid_at: step.paid ? dateOf(w.clock + (step.day % 3)) : undefined,
      });
      if (created.status < 300) w.expenses.push(created.body.data.id);
      return;
    }
    case 'project': {
      const estimate = await session.rest('POST', '/api/documents', {
        type: 'estimate',
        customer_id: w.customers.france,
        date: today,
        items: [line('Chantier', 1, step.amount, 20, { kind: step.services ? 'service' : 'goods' })],
      });
      if (estimate.status >= 300) return;
      await session.rest('POST', `/api/documents/${estimate.body.data.id}/issue`);
      const deposit = await session.rest('POST', `/api/documents/${estimate.body.data.id}/deposit`, { percent: 30 });
      if (deposit.status >= 300) return;
      await issueOn(session, deposit.body.data.id, today);
      if (step.paid) {
        const d = (await session.rest('GET', `/api/documents/${deposit.body.data.id}`)).body;
        await session.rest('POST', `/api/documents/${d.id}/payments`, { date: today, amount: d.amount_due });
      }
      w.clock = Math.min(60, w.clock + (step.day % 5));
      const final = await session.rest('POST', `/api/documents/${estimate.body.data.id}/convert`, { type: 'invoice' });
      if (final.status < 300) await issueOn(session, final.body.data.id, dateOf(w.clock));
      return;
    }
    case 'payExpense': {
      const id = pick(w.expenses, step.pick);
      if (!id) return;
      const e = (await session.rest('GET', `/api/expenses/${id}`)).body;
      await session.rest('PUT', `/api/expenses/${id}`, { ...e, status: 'paid', paid_at: today });
      return;
    }
    case 'deleteExpense': {
      const id = pick(w.expenses, step.pick);
      if (!id) return;
      await session.rest('DELETE', `/api/expenses/${id}`);
      w.expenses = w.expenses.filter((e) => e !== id);
      return;
    }
    case 'debits':
      w.debits = !w.debits;
      await session.rest('PUT', '/api/organization', { ...sellerIdentity, vat_on_debits: w.debits });
      return;
    case 'read':
      await session.rest('GET', '/api/reports/vat?from=2026-10-01&to=2026-10-31');
      return;
  }
  const docs = await all();
  const invoices = docs.filter((d) => d.type === 'invoice' && d.number !== null);
  const estimates = docs.filter((d) => d.type === 'estimate' && d.number !== null);
  switch (step.kind) {
    case 'pay':
    case 'payAll': {
      const d = pick(
        invoices.filter((i) => Number(i.amount_due) > 0),
        step.pick,
      );
      if (!d) return;
      const amount = step.kind === 'payAll' ? d.amount_due : Math.min(Number(d.amount_due), step.amount / 10);
      const paid = await session.rest('POST', `/api/documents/${d.id}/payments`, { date: today, amount });
      if (paid.status === 201) w.payments.set(d.id, [...(w.payments.get(d.id) ?? []), paid.body.data.id]);
      return;
    }
    case 'reverse': {
      const entry = pick([...w.payments.entries()], step.pick);
      if (!entry) return;
      const paymentId = entry[1].pop();
      if (paymentId) await session.rest('DELETE', `/api/documents/${entry[0]}/payments/${paymentId}`);
      return;
    }
    case 'credit':
    case 'cancel': {
      const d = pick(invoices, step.pick);
      if (!d) return;
      const full = (await session.rest('GET', `/api/documents/${d.id}`)).body;
      const quantity = step.kind === 'cancel' ? undefined : 0.5;
      const credit = await session.rest('POST', `/api/documents/${d.id}/convert`, {
        type: 'credit',
        lines: full.items.map((i: { id: number; quantity: number }) => ({ id: i.id, quantity: quantity ?? i.quantity })),
      });
      if (credit.status < 300) await issueOn(session, credit.body.data.id, today);
      return;
    }
    case 'deposit': {
      const e = pick(estimates, step.pick);
      if (!e) return;
      const deposit = await session.rest('POST', `/api/documents/${e.id}/deposit`, { percent: 30 });
      if (deposit.status < 300) await issueOn(session, deposit.body.data.id, today);
      return;
    }
    case 'final': {
      const e = pick(estimates, step.pick);
      if (!e) return;
      const invoice = await session.rest('POST', `/api/documents/${e.id}/convert`, { type: 'invoice' });
      if (invoice.status < 300) await issueOn(session, invoice.body.data.id, today);
      return;
    }
  }
}

describe('the VAT ledger (migration 0069)', () => {
  it('equals a rebuild row for row, and its returns equal the engine run on the documents, after any sequence of writes', async () => {
    let movements = 0;
    let deducted = 0;
    await fc.assert(
      fc.asyncProperty(steps, async (sequence) => {
        const { session } = await registered(server.url);
        const { customerId } = await readyToInvoice(session);
        const eu = await session.rest('POST', '/api/customers', {
          ...businessCustomer,
          name: 'Bäckerei Müller GmbH',
          vat_number: 'DE123456789',
          address: { line1: 'Hauptstraße 1', postal_code: '10115', city: 'Berlin', country: 'Allemagne' },
        });
        const asset = await session.rest('POST', '/api/expenses/categories', { label: 'Matériel', account: '218300' });
        const w: World = {
          session,
          customers: { france: customerId, eu: eu.body.data.id },
          categories: { goods: 'achats', services: 'loyer', asset: asset.body.data.code },
          payments: new Map(),
          expenses: [],
          debits: false,
          clock: 1,
        };
        for (const step of sequence) await apply(w, step as Step);
        const through = await session.rest('GET', '/api/reports/vat?from=2026-10-01&to=2026-11-30');
        expect(through.status).toBe(200);
        await withServerDb(server, async (db) => {
          const organizationId = Number(
            (await db.selectFrom('customers').select('organization_id').where('id', '=', customerId).executeTakeFirstOrThrow())
              .organization_id,
          );
          for (const period of PERIODS) {
            const fromLedger = await vatReportFromLedger(db, organizationId, period);
            const computed = await vatReport(db, organizationId, period);
            expect(fromLedger, `${period.from} → ${period.to}`).toEqual(computed);
            // Too many operations to list: the same figures, the lines without their operations.
            const omitted = await vatReportFromLedger(db, organizationId, period, -1);
            expect(omitted.items_omitted).toBe(true);
            const withoutItems = (report: typeof computed) => ({ ...report, lines: report.lines.map((l) => ({ ...l, items: [] })) });
            expect({ ...omitted, items_omitted: undefined }).toEqual(withoutItems(computed));
            // Each line's operations, paged from the ledger, add up to the line in stored units.
            for (const line of VAT_OPERATION_LINES) {
              const stated = computed.lines.find((l) => l.code === line);
              const sums = { base: ZERO as Money, tax: ZERO as Money };
              let after: string | undefined;
              do {
                const page = await vatOperationsPage(db, organizationId, { ...period, line, per_page: 3, ...(after ? { after } : {}) });
                for (const o of page.data) {
                  sums.base = add(sums.base, String(o.base));
                  sums.tax = add(sums.tax, String(o.tax));
                }
                after = page.next ?? undefined;
              } while (after);
              if (stated?.base !== null) expect(toStoredUnits(sums.base), `${line} base`).toBe(toStoredUnits(String(stated?.base)));
              if (stated?.tax !== null) expect(toStoredUnits(sums.tax), `${line} tax`).toBe(toStoredUnits(String(stated?.tax)));
            }
          }
          await refreshVatLedger(db, organizationId);
          const [rows, days] = [await listVatLedger(db, organizationId), await listVatLedgerDays(db, organizationId)];
          movements += rows.length;
          const finals = await db
            .selectFrom('documents')
            .select('id')
            .where('organization_id', '=', organizationId)
            .where('deducted_by_id', 'is not', null)
            .execute();
          deducted += finals.length;
          await rebuildVatLedger(db, organizationId);
          expect(await listVatLedger(db, organizationId)).toEqual(rows);
          expect(await listVatLedgerDays(db, organizationId)).toEqual(days);
        });
      }),
      { numRuns: Number(process.env.VAT_LEDGER_RUNS ?? 12) },
    );
    // Not vacuous: the sequences wrote movements, and final invoices that deduct deposits.
    expect(movements).toBeGreaterThan(0);
    expect(deducted).toBeGreaterThan(0);
  }, 600_000);
});
