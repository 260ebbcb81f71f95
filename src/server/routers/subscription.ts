import { ownerProcedure, publicProcedure, readProcedure, router } from '../trpc';
import { messageAnswerSchema } from '../../shared/schemas/answers';
import {
  checkoutAnswerSchema,
  checkoutInputSchema,
  plansAnswerSchema,
  subscriptionInvoicesAnswerSchema,
  subscriptionSchema,
} from '../../shared/schemas/subscription';
import * as subscriptions from '../services/subscriptions';

export const plansRouter = router({
  list: publicProcedure
    .meta({ rest: { method: 'GET', path: '/api/plans', summary: 'Les formules, leurs prix (HT et TTC) et leurs limites' } })
    .output(plansAnswerSchema)
    .query(() => subscriptions.plansList()),
});

export const subscriptionRouter = router({
  get: readProcedure
    .meta({
      // Kept (kept-answers.ts): read by every screen for the plan's badge and limits, it changes with a write of the
      // organisation, the day (the month's count, a period's end) or a pending invitation's expiry (its term).
      kept: true,
      rest: { method: 'GET', path: '/api/subscription', summary: 'La formule de l’entreprise, sa période et l’usage de ses limites' },
    })
    .output(subscriptionSchema)
    .query(({ ctx }) => subscriptions.subscriptionOf(ctx, ctx.organizationId, ctx.keptTerm)),
  checkout: ownerProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/subscription/checkout',
        summary: 'Choisit une formule : l’adresse de paiement, ou la formule appliquée quand aucun fournisseur n’est configuré',
      },
    })
    .input(checkoutInputSchema)
    .output(checkoutAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      const result = await subscriptions.checkout(ctx, input);
      return { ...result, data: await subscriptions.subscriptionOf(ctx, ctx.organizationId) };
    }),
  cancel: ownerProcedure
    .meta({ rest: { method: 'POST', path: '/api/subscription/cancel', summary: 'Résilie l’abonnement à la fin de la période payée' } })
    .output(messageAnswerSchema)
    .mutation(async ({ ctx }) => ({ messages: await subscriptions.setCancellation(ctx, true) })),
  resume: ownerProcedure
    .meta({ rest: { method: 'POST', path: '/api/subscription/resume', summary: 'Annule la résiliation : l’abonnement continue' } })
    .output(messageAnswerSchema)
    .mutation(async ({ ctx }) => ({ messages: await subscriptions.setCancellation(ctx, false) })),
  cancelChange: ownerProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/subscription/change/cancel',
        summary: 'Annule le passage en attente à une formule plus petite : la formule actuelle continue',
      },
    })
    .output(messageAnswerSchema)
    .mutation(async ({ ctx }) => ({ messages: await subscriptions.cancelPendingChange(ctx) })),
  invoices: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/subscription/invoices', summary: 'Les factures de l’abonnement' } })
    .output(subscriptionInvoicesAnswerSchema)
    .query(({ ctx }) => subscriptions.invoicesOf(ctx)),
});
