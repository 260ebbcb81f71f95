import { add, mul, percentOf, round, sub, toNumber } from './money';
import { formatCount, formatNumberUpTo, NARROW_NBSP } from './typography';

/**
 * The plans, in one place: what each costs, what it includes and the limits the server enforces. The
 * pricing page, Gérer mon abonnement, the checkout, the 402 refusals and the operator command all read this table.
 */
export const PLAN_IDS = ['free', 'solo', 'team'] as const;
export type PlanId = (typeof PLAN_IDS)[number];

export const BILLING_PERIODS = ['month', 'year'] as const;
export type BillingPeriod = (typeof BILLING_PERIODS)[number];

/** What the server counts and refuses past: `null` means no limit. */
export const LIMIT_KEYS = ['documents', 'members', 'storage'] as const;
export type LimitKey = (typeof LIMIT_KEYS)[number];
export type PlanLimits = Record<LimitKey, number | null>;

export interface Plan {
  id: PlanId;
  name: string;
  tagline: string;
  /** Prices without VAT, in euros, as decimal strings (money.ts does the arithmetic). */
  price: Record<BillingPeriod, string>;
  limits: PlanLimits;
  /** REST access beyond the app, and outgoing webhooks: features, not counters. */
  api: boolean;
  webhooks: boolean;
  /** Issued e-invoices (Factur-X, platform transmission) a month; informative, never refused (legal record first). */
  einvoicesPerMonth: number | null;
  support: string;
}

const MB = 1024 * 1024;

export const PLANS: Record<PlanId, Plan> = {
  free: {
    id: 'free',
    name: 'Gratuit',
    tagline: 'Pour démarrer et essayer Facturier',
    price: { month: '0', year: '0' },
    limits: { documents: 20, members: 1, storage: 100 * MB },
    api: false,
    webhooks: false,
    einvoicesPerMonth: 20,
    support: 'Documentation',
  },
  solo: {
    id: 'solo',
    name: 'Solo',
    tagline: 'Pour l’indépendant qui facture chaque semaine',
    price: { month: '9', year: '90' },
    limits: { documents: 500, members: 2, storage: 2048 * MB },
    api: true,
    webhooks: false,
    einvoicesPerMonth: 500,
    support: 'Par e-mail',
  },
  team: {
    id: 'team',
    name: 'Équipe',
    tagline: 'Pour une équipe qui partage clients et documents',
    price: { month: '29', year: '290' },
    limits: { documents: null, members: 10, storage: 20480 * MB },
    api: true,
    webhooks: true,
    einvoicesPerMonth: null,
    support: 'Prioritaire',
  },
};

/** French VAT on the subscription itself (CGI art. 278: standard rate). */
export const PLAN_VAT_RATE = '20';

export const PERIOD_LABELS: Record<BillingPeriod, string> = { month: 'mensuel', year: 'annuel' };

export const LIMIT_LABELS: Record<LimitKey, string> = {
  documents: 'documents créés ce mois-ci',
  members: 'membres de l’équipe',
  storage: 'de justificatifs stockés',
};

export function planPrice(plan: Plan, period: BillingPeriod): { net: number; vat: number; gross: number } {
  const net = plan.price[period];
  const vat = round(percentOf(net, PLAN_VAT_RATE), 2);
  return { net: toNumber(net), vat: toNumber(vat), gross: toNumber(add(net, vat)) };
}

/** What twelve months cost against a year paid at once: the saving the pricing page shows. */
export function yearlySaving(plan: Plan): number {
  return toNumber(sub(mul(plan.price.month, 12), plan.price.year));
}

export const PLAN_RANK: Record<PlanId, number> = { free: 0, solo: 1, team: 2 };

/** The cheapest plan whose limit for `key` is above `amount` (a 402 and the banner name it), or none. */
export function planThatLifts(key: LimitKey, amount: number): Plan | undefined {
  return PLAN_IDS.map((id) => PLANS[id]).find((p) => p.limits[key] === null || (p.limits[key] as number) > amount);
}

/** '100 Mo', '2 Go': storage sizes (bytes, not money) as people read them. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * MB) return `${formatNumberUpTo(bytes / (1024 * MB), 1, { thousand: NARROW_NBSP })} Go`;
  if (bytes >= MB) return `${formatCount(Math.round(bytes / MB))} Mo`;
  return `${formatCount(Math.round(bytes / 1024))} Ko`;
}

/** What a plan includes, as its summary says it: « 500 documents / mois », « Documents illimités / mois ». */
export function includedText(key: LimitKey, value: number | null): string {
  if (key === 'documents') return value === null ? 'Documents illimités / mois' : `${formatLimit(key, value)} documents / mois`;
  if (key === 'members') return value === null ? 'Membres illimités' : `${formatLimit(key, value)} ${value > 1 ? 'membres' : 'membre'}`;
  return value === null ? 'Justificatifs illimités' : `${formatLimit(key, value)} de justificatifs`;
}

export function formatLimit(key: LimitKey, value: number | null): string {
  if (value === null) return 'Illimité';
  return key === 'storage' ? formatBytes(value) : formatCount(value);
}

/** What a plan may include beyond its counters. */
export type PlanFeature = 'api' | 'webhooks';

/** The French refusal of a feature the plan does not include (402), naming the cheapest plan that does. */
export function featureRefusal(feature: PlanFeature, plan: Plan): string {
  const lifter = PLAN_IDS.map((id) => PLANS[id]).find((p) => p[feature]);
  const what = feature === 'api' ? 'Les clés d’API ne sont pas comprises' : 'Les webhooks ne sont pas compris';
  const lift = lifter ? ` Passez à la formule ${lifter.name} pour en profiter (Paramètres → Gérer mon abonnement).` : '';
  return `${what} dans la formule ${plan.name}.${lift}`;
}

/** The French refusal of a creation past a limit (402 naming the limit and the plan that lifts it). */
export function limitRefusal(key: LimitKey, plan: Plan, used: number): string {
  const limit = formatLimit(key, plan.limits[key]);
  const lifter = planThatLifts(key, Math.max(used, plan.limits[key] ?? used));
  const what: Record<LimitKey, string> = {
    documents: `Limite atteinte : ${limit} documents créés par mois avec la formule ${plan.name}.`,
    members: `Limite atteinte : ${limit} membre${plan.limits.members === 1 ? '' : 's'} au plus avec la formule ${plan.name} (invitations en attente comprises).`,
    storage: `Limite atteinte : ${limit} de justificatifs au plus avec la formule ${plan.name}.`,
  };
  const lift = lifter ? ` Passez à la formule ${lifter.name} pour aller au-delà (Paramètres → Gérer mon abonnement).` : '';
  return `${what[key]}${lift}`;
}
