// The stories the seeded documents tell, each a few dated steps: invoices paid or not, estimates accepted, refused
// or converted, orders delivered then invoiced, deposits before a final invoice, credit notes whole or partial.
import { Planner, type Outcome, type PlanContext, type Ref } from './planner';
import { defined } from '../../src/shared/defined';

type Scenario = { size: number; weight: number; plan: (p: Planner) => void };

function invoice(p: Planner, opts: { outcome?: Outcome; old?: boolean } = {}): void {
  const customer = p.customer();
  const date = opts.old ? p.dayAgo(customer.maturity + 10, 364) : p.dayAgo(0, 364);
  const form = p.form('invoice', customer, date);
  const sent = p.random.chance(0.7);
  const ref: Ref = {};
  p.at(date, 'facture', async () => {
    ref.doc = await p.actions.issued(form);
    if (sent) await p.actions.markSent(ref.doc.id);
  });
  p.settle(ref, date, customer, opts.outcome);
}

/** Work in progress: a few recent invoices and estimates not issued yet. */
function draft(p: Planner): void {
  const customer = p.customer();
  const date = p.dayAgo(0, 20);
  const form = p.form(p.random.chance(0.7) ? 'invoice' : 'estimate', customer, date);
  p.at(date, 'brouillon', async () => void (await p.actions.draft(form)));
}

/** An estimate or proforma left pending, accepted or refused (recent ones are mostly still pending). */
function quote(p: Planner, type: 'estimate' | 'proforma', forced?: 'pending' | 'accepted' | 'refused'): void {
  const customer = p.customer();
  const date = p.dayAgo(0, 364);
  const status =
    forced ??
    (p.ageOf(date) <= 30
      ? p.random.weighted([
          ['pending', 60],
          ['accepted', 20],
          ['refused', 20],
        ] as const)
      : p.random.weighted([
          ['pending', 20],
          ['accepted', 30],
          ['refused', 50],
        ] as const));
  const decided = p.later(date, 1, 14);
  const form = p.form(type, customer, date);
  const ref: Ref = {};
  p.at(date, type, async () => {
    ref.doc = await p.actions.issued(form);
    await p.actions.markSent(ref.doc.id);
  });
  if (status !== 'pending') p.at(decided, `${type} ${status}`, () => p.actions.setStatus(defined(ref.doc, 'ref.doc').id, status));
}

/** An estimate or proforma, accepted (or not marked so), converted into an invoice. */
function quoteToInvoice(p: Planner, type: 'estimate' | 'proforma'): void {
  const customer = p.customer();
  const date = p.dayAgo(10, 364);
  const accepted = p.later(date, 1, 12);
  const invoiced = p.later(accepted, 0, 8);
  const markAccepted = p.random.chance(0.7);
  const form = p.form(type, customer, date);
  const quoteRef: Ref = {};
  const ref: Ref = {};
  p.at(date, type, async () => {
    quoteRef.doc = await p.actions.issued(form);
    await p.actions.markSent(quoteRef.doc.id);
  });
  if (markAccepted) p.at(accepted, `${type} accepté`, () => p.actions.setStatus(defined(quoteRef.doc, 'quoteRef.doc').id, 'accepted'));
  p.at(invoiced, `${type} → facture`, async () => {
    ref.doc = await p.actions.issue((await p.actions.convert(defined(quoteRef.doc, 'quoteRef.doc').id, 'invoice', invoiced)).id);
  });
  p.settle(ref, invoiced, customer);
}

/** An order delivered (delivery note) then invoiced from the delivery note, or invoiced straight from the order. */
function order(p: Planner, delivered: boolean): void {
  const customer = p.customer({ companies: true });
  const date = p.dayAgo(20, 364);
  const deliveredOn = p.later(date, 3, 15);
  const invoiced = delivered ? p.later(deliveredOn, 0, 6) : p.later(date, 5, 20);
  const form = p.form('order', customer, date, { themes: ['print', 'event', 'publishing'] });
  const orderRef: Ref = {};
  const deliveryRef: Ref = {};
  const ref: Ref = {};
  p.at(date, 'bon de commande', async () => {
    orderRef.doc = await p.actions.issued(form);
  });
  if (delivered) {
    p.at(deliveredOn, 'bon de livraison', async () => {
      deliveryRef.doc = await p.actions.issue(
        (await p.actions.convert(defined(orderRef.doc, 'orderRef.doc').id, 'delivery', deliveredOn)).id,
      );
      await p.actions.setStatus(deliveryRef.doc.id, 'done');
    });
  }
  p.at(invoiced, 'commande → facture', async () => {
    const origin = delivered ? defined(deliveryRef.doc, 'deliveryRef.doc') : defined(orderRef.doc, 'orderRef.doc');
    ref.doc = await p.actions.issue((await p.actions.convert(origin.id, 'invoice', invoiced)).id);
    await p.actions.markSent(ref.doc.id);
  });
  p.settle(ref, invoiced, customer);
}

/** An accepted estimate, a deposit invoice paid at once (CGI art. 289), then the final invoice that deducts it. */
function deposit(p: Planner): void {
  const customer = p.customer({ companies: true });
  const date = p.dayAgo(40, 364);
  const accepted = p.later(date, 1, 7);
  const depositOn = p.later(accepted, 0, 3);
  const depositPaid = p.later(depositOn, 0, 10);
  const final = p.later(depositOn, 15, 45);
  const percent = p.random.pick([30, 30, 40, 50]);
  const form = p.form('estimate', customer, date, { minLines: 2, themes: ['web', 'event', 'studio'] });
  const estimateRef: Ref = {};
  const depositRef: Ref = {};
  const ref: Ref = {};
  p.at(date, 'devis', async () => {
    estimateRef.doc = await p.actions.issued(form);
    await p.actions.markSent(estimateRef.doc.id);
  });
  p.at(accepted, 'devis accepté', () => p.actions.setStatus(defined(estimateRef.doc, 'estimateRef.doc').id, 'accepted'));
  p.at(depositOn, 'facture d’acompte', async () => {
    depositRef.doc = await p.actions.issue(
      (await p.actions.deposit(defined(estimateRef.doc, 'estimateRef.doc').id, percent, depositOn)).id,
    );
    await p.actions.markSent(depositRef.doc.id);
  });
  p.at(depositPaid, 'acompte réglé', () =>
    p.actions.pay(defined(depositRef.doc, 'depositRef.doc').id, {
      date: depositPaid,
      amount: defined(depositRef.doc, 'depositRef.doc').amount_due,
      method: 'transfer',
      reference: `VIR SEPA ${defined(depositRef.doc, 'depositRef.doc').number}`,
    }),
  );
  p.at(final, 'facture finale', async () => {
    ref.doc = await p.actions.issue((await p.actions.convert(defined(estimateRef.doc, 'estimateRef.doc').id, 'invoice', final)).id);
    await p.actions.markSent(ref.doc.id);
  });
  p.settle(ref, final, customer);
}

/** An invoice corrected by a credit note: whole (the invoice is cancelled) or for part of a line, the rest then paid. */
function credit(p: Planner, whole: boolean): void {
  const customer = p.customer();
  const date = p.dayAgo(15, 364);
  const credited = p.later(date, 3, 25);
  const form = p.form('invoice', customer, date, { minLines: whole ? 1 : 2 });
  const lineIndex = p.random.int(0, defined(form.items, 'form.items').length - 1);
  const reason = whole
    ? p.random.pick(['Annulation de la commande', 'Facture émise en double', 'Prestation annulée par le client'])
    : p.random.pick(['Geste commercial', 'Erreur de quantité', 'Article retourné']);
  const done = p.random.chance(0.5);
  const ref: Ref = {};
  p.at(date, 'facture', async () => {
    ref.doc = await p.actions.issued(form);
    await p.actions.markSent(ref.doc.id);
  });
  p.at(credited, whole ? 'avoir total' : 'avoir partiel', async () => {
    const line = defined(defined(ref.doc, 'ref.doc').items[lineIndex]);
    const lines = whole
      ? undefined
      : [{ id: defined(line.id, 'line.id'), quantity: line.quantity >= 2 ? Math.floor(line.quantity / 2) : line.quantity }];
    const note = await p.actions.issue(
      (await p.actions.convert(defined(ref.doc, 'ref.doc').id, 'credit', credited, { lines, note: `Motif : ${reason}` })).id,
    );
    if (done) await p.actions.setStatus(note.id, 'done');
    if (!whole) ref.doc = await p.actions.get(defined(ref.doc, 'ref.doc').id);
  });
  if (!whole)
    p.settle(
      ref,
      credited,
      customer,
      p.random.weighted([
        ['paid', 70],
        ['partial', 10],
        ['unpaid', 20],
      ] as const),
    );
}

const SCENARIOS: Record<string, Scenario> = {
  invoice: { size: 1, weight: 40, plan: (p) => invoice(p) },
  draft: { size: 1, weight: 3, plan: draft },
  estimate: { size: 1, weight: 9, plan: (p) => quote(p, 'estimate') },
  proforma: { size: 1, weight: 1, plan: (p) => quote(p, 'proforma') },
  estimateToInvoice: { size: 2, weight: 9, plan: (p) => quoteToInvoice(p, 'estimate') },
  proformaToInvoice: { size: 2, weight: 1, plan: (p) => quoteToInvoice(p, 'proforma') },
  orderDelivered: { size: 3, weight: 4, plan: (p) => order(p, true) },
  orderInvoiced: { size: 2, weight: 1, plan: (p) => order(p, false) },
  deposit: { size: 3, weight: 3, plan: deposit },
  creditWhole: { size: 2, weight: 2, plan: (p) => credit(p, true) },
  creditPartial: { size: 2, weight: 3, plan: (p) => credit(p, false) },
};

/** What even a small seed shows: each type, each invoice state, each conversion. */
const GUARANTEED: { size: number; plan: (p: Planner) => void }[] = [
  { size: 1, plan: (p) => invoice(p, { outcome: 'paid', old: true }) },
  { size: 1, plan: (p) => invoice(p, { outcome: 'unpaid', old: true }) },
  { size: 1, plan: (p) => invoice(p, { outcome: 'partial', old: true }) },
  { size: 1, plan: (p) => quote(p, 'estimate', 'pending') },
  { size: 1, plan: (p) => quote(p, 'estimate', 'refused') },
  defined(SCENARIOS.estimateToInvoice, 'SCENARIOS.estimateToInvoice'),
  defined(SCENARIOS.orderDelivered, 'SCENARIOS.orderDelivered'),
  defined(SCENARIOS.deposit, 'SCENARIOS.deposit'),
  defined(SCENARIOS.creditWhole, 'SCENARIOS.creditWhole'),
  defined(SCENARIOS.creditPartial, 'SCENARIOS.creditPartial'),
  defined(SCENARIOS.proformaToInvoice, 'SCENARIOS.proformaToInvoice'),
  defined(SCENARIOS.draft, 'SCENARIOS.draft'),
];

/** Plans exactly `count` documents; the steps come back in the order they must run. */
export function planDocuments(ctx: PlanContext, count: number) {
  const planner = new Planner(ctx);
  let remaining = count;
  for (const scenario of GUARANTEED) {
    if (scenario.size > remaining) continue;
    scenario.plan(planner);
    remaining -= scenario.size;
  }
  while (remaining > 0) {
    const fitting = Object.values(SCENARIOS).filter((s) => s.size <= remaining);
    const scenario = ctx.random.weighted(fitting.map((s) => [s, s.weight] as const));
    scenario.plan(planner);
    remaining -= scenario.size;
  }
  return planner.steps.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : a.seq - b.seq));
}
