import { z } from 'zod';

/**
 * The « Facturation électronique » page at a glance: each flow in one group — accepted (déposée), rejected, received,
 * reported, waiting (on its way or awaiting the platform's answer), needs_user (something to fix or resend).
 */
export const OVERVIEW_GROUPS = ['needs_user', 'waiting', 'accepted', 'rejected', 'received', 'reported'] as const;
export type OverviewGroup = (typeof OVERVIEW_GROUPS)[number];

export const OVERVIEW_GROUP_LABELS: Record<OverviewGroup, string> = {
  needs_user: 'À traiter',
  waiting: 'En attente',
  accepted: 'Envoyées et acceptées',
  rejected: 'Rejetées',
  received: 'Reçues',
  reported: 'Déclarées (e-reporting)',
};

export const overviewRowSchema = z.object({
  group: z.enum(OVERVIEW_GROUPS),
  /** What the row is: an issued document, an expense received, an e-reporting period. */
  target: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('document'), id: z.number().int(), type: z.enum(['invoice', 'credit']) }),
    z.object({ kind: z.literal('expense'), id: z.number().int() }),
    z.object({ kind: z.literal('ereporting'), period: z.string() }),
    z.object({ kind: z.literal('none') }),
  ]),
  title: z.string(),
  state: z.string(),
  detail: z.string(),
  date: z.string(),
});
export type OverviewRow = z.infer<typeof overviewRowSchema>;

export const overviewSchema = z.object({
  counts: z.record(z.enum(OVERVIEW_GROUPS), z.number().int()),
  data: z.array(overviewRowSchema),
});
