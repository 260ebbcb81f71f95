import { z } from 'zod';
import { webhooksProcedure, router } from '../trpc';
import { idSchema } from '../../shared/schemas/reference';
import { messageAnswerSchema } from '../../shared/schemas/answers';
import {
  webhookCreatedSchema,
  webhookDeliveriesAnswerSchema,
  webhookInputSchema,
  webhookReplayAnswerSchema,
  webhookReplayInputSchema,
  webhookResendAnswerSchema,
  webhooksAnswerSchema,
  webhookTestAnswerSchema,
  webhookUpdatedSchema,
} from '../../shared/schemas/webhook';
import * as webhooks from '../services/webhooks';

export const webhooksRouter = router({
  list: webhooksProcedure
    .meta({ rest: { method: 'GET', path: '/api/webhooks', summary: 'Les webhooks de l’entreprise' } })
    .output(webhooksAnswerSchema)
    .query(({ ctx }) => webhooks.listWebhooks(ctx)),
  create: webhooksProcedure
    .meta({
      rest: { method: 'POST', path: '/api/webhooks', status: 201, summary: 'Ajoute un webhook ; son secret est donné une seule fois' },
      feature: 'webhooks',
    })
    .input(webhookInputSchema)
    .output(webhookCreatedSchema)
    .mutation(async ({ ctx, input }) => ({ messages: 'Webhook ajouté', data: await webhooks.createWebhook(ctx, input) })),
  update: webhooksProcedure
    .meta({ rest: { method: 'PUT', path: '/api/webhooks/{id}', bodyKey: 'data', summary: 'Modifie un webhook, l’active ou le désactive' } })
    .input(z.object({ id: idSchema, data: webhookInputSchema }))
    .output(webhookUpdatedSchema)
    .mutation(async ({ ctx, input }) => {
      const { endpoint, released } = await webhooks.updateWebhook(ctx, input.id, input.data);
      const messages =
        released > 0
          ? `Webhook réactivé : ${released} événement${released > 1 ? 's' : ''} en attente ${released > 1 ? 'partent' : 'part'} maintenant`
          : 'Webhook mis à jour';
      return { messages, data: endpoint };
    }),
  delete: webhooksProcedure
    .meta({ rest: { method: 'DELETE', path: '/api/webhooks/{id}', summary: 'Supprime un webhook et son journal' } })
    .input(z.object({ id: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await webhooks.deleteWebhook(ctx, input.id);
      return { messages: 'Webhook supprimé' };
    }),
  deliveries: webhooksProcedure
    .meta({ rest: { method: 'GET', path: '/api/webhooks/{id}/deliveries', summary: 'Les derniers envois d’un webhook et leurs réponses' } })
    .input(z.object({ id: idSchema }))
    .output(webhookDeliveriesAnswerSchema)
    .query(({ ctx, input }) => webhooks.deliveriesOf(ctx, input.id)),
  test: webhooksProcedure
    .meta({
      rest: { method: 'POST', path: '/api/webhooks/{id}/test', summary: 'Envoie un événement « ping » de test' },
      feature: 'webhooks',
    })
    .input(z.object({ id: idSchema }))
    .output(webhookTestAnswerSchema)
    .mutation(({ ctx, input }) => webhooks.testWebhook(ctx, input.id)),
  resend: webhooksProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/webhooks/{id}/deliveries/{delivery_id}/resend',
        summary: 'Renvoie l’événement d’un envoi (nouvel envoi, même événement et même numéro de séquence)',
      },
      feature: 'webhooks',
    })
    .input(z.object({ id: idSchema, delivery_id: z.string().uuid('Identifiant d’envoi invalide').meta({ label: 'Envoi' }) }))
    .output(webhookResendAnswerSchema)
    .mutation(({ ctx, input }) => webhooks.resendDelivery(ctx, input.id, input.delivery_id)),
  replay: webhooksProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/webhooks/{id}/replay',
        bodyKey: 'range',
        summary: 'Renvoie tous les événements d’une période (`from` inclus, `to` exclu), dans l’ordre de leur séquence',
      },
      feature: 'webhooks',
    })
    .input(z.object({ id: idSchema, range: webhookReplayInputSchema }))
    .output(webhookReplayAnswerSchema)
    .mutation(({ ctx, input }) => webhooks.replayEvents(ctx, input.id, input.range)),
});
