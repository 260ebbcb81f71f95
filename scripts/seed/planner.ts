// Plans the seeded year as dated steps: every random choice is drawn while planning (so a seed fixes the data),
// then the steps run in date order, which is what the chronological numbering of invoices and credit notes asks
// for (CGI art. 242 nonies A: an invoice is never dated before the last one issued).
import type { DocumentInput, DocumentType } from '../../src/shared/schemas/document';
import type { PaymentInput } from '../../src/shared/schemas/payment';
import type { DocumentActions, DocumentRecord } from './actions';
import type { SeedCustomer } from './customers';
import type { SeedItem, TaxRates, Theme } from './items';
import type { Random } from './random';
import { defined } from '../../src/shared/defined';

export interface PlanContext {
  random: Random;
  /** YYYY-MM-DD: the last day of the seeded year. */
  today: string;
  customers: SeedCustomer[];
  items: SeedItem[];
  taxes: TaxRates;
  actions: DocumentActions;
}

export interface Step {
  date: string;
  seq: number;
  label: string;
  run: () => Promise<void>;
}

/** A document that a later step needs, filled in when its own step has run. */
export interface Ref {
  doc?: DocumentRecord;
}

export type Outcome = 'paid' | 'partial' | 'unpaid';

export const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
const cents = (n: number) => Math.round(n * 100);

const SUBJECTS: Record<Theme, string[]> = {
  studio: [
    'Refonte de l’identité visuelle',
    'Campagne de printemps',
    'Communication du lancement',
    'Rapport annuel',
    'Accompagnement éditorial',
  ],
  web: ['Nouveau site internet', 'Refonte du site', 'Boutique en ligne', 'Maintenance et hébergement', 'Référencement naturel'],
  print: ['Supports imprimés', 'Signalétique du magasin', 'Objets publicitaires', 'Habillage de vitrine', 'Kit salon'],
  event: ['Soirée clients', 'Séminaire d’équipe', 'Stand au salon régional', 'Inauguration', 'Journée portes ouvertes'],
  publishing: ['Abonnements presse', 'Diffusion du magazine', 'Publicité dans « Regards de Province »', 'Commande de livres'],
};
const REVERSE_CHARGE = 'Autoliquidation : TVA due par le preneur (art. 283-2 du CGI, art. 196 de la directive 2006/112/CE)';
const INTRA_EU_GOODS = 'Exonération de TVA, art. 262 ter I du CGI : livraison intracommunautaire';

export class Planner {
  readonly steps: Step[] = [];
  private seq = 0;

  constructor(readonly ctx: PlanContext) {}

  get random() {
    return this.ctx.random;
  }

  get actions() {
    return this.ctx.actions;
  }

  at(date: string, label: string, run: () => Promise<void>): void {
    this.steps.push({ date, seq: this.seq++, label, run });
  }

  /** A working day between `minAgo` and `maxAgo` days before today (never after today). */
  dayAgo(minAgo: number, maxAgo: number): string {
    return this.workday(addDays(this.ctx.today, -this.random.int(minAgo, Math.max(minAgo, maxAgo))));
  }

  /** A working day `min` to `max` days after `date`, never after today. */
  later(date: string, min: number, max: number): string {
    return this.workday(addDays(date, this.random.int(min, max)));
  }

  private workday(date: string): string {
    const day = new Date(`${date}T00:00:00Z`).getUTCDay();
    const moved = day === 6 ? addDays(date, 2) : day === 0 ? addDays(date, 1) : date;
    // The earlier of two ISO dates, compared as text (string order is date order)
    return moved > this.ctx.today ? this.ctx.today : moved;
  }

  ageOf(date: string): number {
    return daysBetween(date, this.ctx.today);
  }

  /** A customer drawn by how much business each brings; `companies` leaves out individuals. */
  customer(opts: { companies?: boolean } = {}): SeedCustomer {
    const pool = this.ctx.customers.filter((c) => !opts.companies || c.type === 'company');
    return this.random.weighted(pool.map((c) => [c, c.weight] as const));
  }

  theme(customer: SeedCustomer, themes?: Theme[]): Theme {
    if (themes) return this.random.pick(themes);
    if (customer.type === 'individual')
      return this.random.weighted([
        ['print', 3],
        ['publishing', 3],
        ['web', 2],
      ] as const);
    return this.random.weighted([
      ['studio', 4],
      ['web', 3],
      ['print', 4],
      ['event', 3],
      ['publishing', 1],
    ] as const);
  }

  private quantity(item: SeedItem, individual: boolean): number {
    const r = this.random;
    switch (item.unit) {
      case 'h':
        return r.int(2, individual ? 8 : 28);
      case 'jour':
        return r.int(2, individual ? 2 : 12) / 2;
      case 'forfait':
        return ['CM-M', 'MAINT'].includes(item.code) ? r.pick([1, 3, 6, 12]) : 1;
      case 'kg':
        return r.int(2, 25);
      case 'm²':
        return r.int(4, 80) / 2;
      case 'u':
        if (individual) return item.unit_price < 50 ? r.int(1, 10) : 1;
        if (item.unit_price < 10) return r.pick([50, 100, 150, 200, 250, 300, 500]);
        if (item.unit_price < 50) return r.int(5, 80);
        return item.unit_price < 200 ? r.int(1, 20) : r.int(1, 3);
    }
  }

  /** A document's form with 1 to 5 lines from the catalogue, around one theme. */
  form(type: DocumentType, customer: SeedCustomer, date: string, opts: { minLines?: number; themes?: Theme[] } = {}): DocumentInput {
    const r = this.random;
    const theme = this.theme(customer, opts.themes);
    const count = Math.max(
      opts.minLines ?? 1,
      r.weighted([
        [1, 3],
        [2, 4],
        [3, 3],
        [4, 2],
        [5, 1],
      ] as const),
    );
    const themed = this.ctx.items.filter((i) => i.theme === theme);
    const chosen = r.sample(themed, count);
    if (chosen.length > 1 && r.chance(0.15)) chosen[chosen.length - 1] = r.pick(this.ctx.items.filter((i) => !chosen.includes(i)));
    while (chosen.length < count) chosen.push(r.pick(this.ctx.items.filter((i) => !chosen.includes(i))));
    const foreign = customer.zone === 'eu';
    const items = chosen.map((item) => ({
      code: item.code,
      item: item.name,
      quantity: this.quantity(item, customer.type === 'individual'),
      unit: item.unit,
      unit_price: item.unit_price,
      discount_type: 'percent' as const,
      discount_value: r.chance(0.1) ? r.pick([5, 10, 15]) : 0,
      // Reverse charge or intra-EU supply: no French VAT on the lines, the mention says why.
      taxes: [this.ctx.taxes.line(foreign ? 0 : item.rate)],
      kind: item.kind,
    }));
    const goods = chosen.some((i) => i.kind === 'goods');
    const services = chosen.some((i) => i.kind === 'service');
    const shipping = goods && r.chance(0.3) ? r.pick([9.9, 15, 25, 39]) : 0;
    return {
      type,
      customer_id: customer.id,
      date,
      ...(type === 'estimate' || type === 'proforma' ? { maturity: addDays(date, 30) } : {}),
      header: `Objet : ${r.pick(SUBJECTS[theme])}`,
      condition: customer.maturity > 0 ? `Paiement à ${customer.maturity} jours` : 'Paiement à réception',
      footer: foreign ? [services ? REVERSE_CHARGE : '', goods ? INTRA_EU_GOODS : ''].filter(Boolean).join('\n') : '',
      discount_type: 'percent',
      discount_value: r.chance(0.06) ? r.pick([3, 5, 10]) : 0,
      shipping,
      shipping_details: shipping ? r.pick(['Colissimo', 'Transporteur', 'Coursier']) : '',
      items,
    };
  }

  /**
   * Payments on an invoice issued on `date`, planned now and recorded in date order. Unless told, old invoices are
   * mostly paid and recent ones mostly open; what stays unpaid past its maturity is what the app shows overdue.
   */
  settle(ref: Ref, date: string, customer: SeedCustomer, forced?: Outcome): void {
    const r = this.random;
    const dueDate = addDays(date, customer.maturity);
    const outcome: Outcome =
      forced ??
      (customer.type === 'individual'
        ? r.weighted([
            ['paid', 85],
            ['partial', 5],
            ['unpaid', 10],
          ] as const)
        : dueDate < this.ctx.today
          ? r.weighted([
              ['paid', 76],
              ['partial', 10],
              ['unpaid', 14],
            ] as const)
          : r.weighted([
              ['paid', 30],
              ['partial', 10],
              ['unpaid', 60],
            ] as const));
    if (outcome === 'unpaid') return;
    const method: PaymentInput['method'] =
      customer.type === 'individual'
        ? r.weighted([
            ['card', 50],
            ['cash', 20],
            ['check', 15],
            ['transfer', 15],
          ] as const)
        : customer.zone === 'eu'
          ? 'transfer'
          : r.weighted([
              ['transfer', 80],
              ['check', 20],
            ] as const);
    const chequeNumber = String(r.int(1_000_000, 9_999_999));
    const reference = () =>
      method === 'transfer' ? `VIR SEPA ${defined(ref.doc, 'ref.doc').number}` : method === 'check' ? `Chèque n° ${chequeNumber}` : '';
    const payDay = (from: string) =>
      customer.type === 'individual' ? this.later(from, 0, 3) : this.later(from, 3, Math.max(5, customer.maturity + 15));
    const due = () => cents(defined(ref.doc, 'ref.doc').amount_due);
    const record = (amountCents: number, day: string) =>
      this.actions.pay(defined(ref.doc, 'ref.doc').id, { date: day, amount: amountCents / 100, method, reference: reference() });

    if (outcome === 'partial') {
      const share = r.int(20, 70) / 100;
      const day = payDay(date);
      this.at(day, 'paiement partiel', async () => {
        if (due() > 1) await record(Math.round(due() * share), day);
      });
      return;
    }
    const first = payDay(date);
    if (r.chance(0.25)) {
      // Paid in two instalments.
      const share = r.int(30, 60) / 100;
      const second = this.later(first, 7, 30);
      let firstCents = 0;
      this.at(first, 'premier règlement', async () => {
        firstCents = Math.round(due() * share);
        if (firstCents > 0) await record(firstCents, first);
      });
      this.at(second, 'solde', async () => {
        if (due() - firstCents > 0) await record(due() - firstCents, second);
      });
      return;
    }
    this.at(first, 'règlement', async () => {
      if (due() > 0) await record(due(), first);
    });
  }
}
