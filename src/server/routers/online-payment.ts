import { manageProcedure, router } from '../trpc';
import { writeAnswer } from '../../shared/schemas/answers';
import {
  onlinePaymentCheckSchema,
  onlinePaymentSettingsInputSchema,
  onlinePaymentSettingsSchema,
} from '../../shared/schemas/online-payment';
import {
  checkOnlinePayment,
  getOnlinePaymentSettings,
  removeOnlinePaymentSettings,
  saveOnlinePaymentSettings,
} from '../services/online-payment';

/** Paramètres → Paiement en ligne: the organisation's own Stripe keys. Secrets never leave the server. */
export const onlinePaymentRouter = router({
  settings: manageProcedure
    .meta({ rest: { method: 'GET', path: '/api/settings/online-payment', summary: 'Paiement par carte via Stripe (sans les secrets)' } })
    .output(onlinePaymentSettingsSchema)
    .query(({ ctx }) => getOnlinePaymentSettings(ctx, ctx.organizationId)),
  saveSettings: manageProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/settings/online-payment',
        summary: 'Enregistre les clés Stripe de l’entreprise (une nouvelle clé secrète est d’abord essayée sur Stripe)',
      },
    })
    .input(onlinePaymentSettingsInputSchema)
    .output(writeAnswer(onlinePaymentSettingsSchema))
    .mutation(async ({ ctx, input }) => ({
      messages: 'Mise à jour avec succès',
      data: await saveOnlinePaymentSettings(ctx, ctx.organizationId, input),
    })),
  removeSettings: manageProcedure
    .meta({
      rest: { method: 'DELETE', path: '/api/settings/online-payment', summary: 'Oublie les clés Stripe : plus de paiement par carte' },
    })
    .output(writeAnswer(onlinePaymentSettingsSchema))
    .mutation(async ({ ctx }) => ({
      messages: 'Paiement en ligne désactivé',
      data: await removeOnlinePaymentSettings(ctx, ctx.organizationId),
    })),
  check: manageProcedure
    .meta({
      upstream: true,
      heavy: true,
      rest: { method: 'POST', path: '/api/settings/online-payment/test', summary: 'Essaie la clé secrète enregistrée sur l’API de Stripe' },
    })
    .output(writeAnswer(onlinePaymentCheckSchema))
    .mutation(({ ctx }) => checkOnlinePayment(ctx, ctx.organizationId)),
});
