import { z } from 'zod';
import { protectedProcedure, router } from '../trpc';
import { idSchema } from '../../shared/schemas/reference';
import { messageAnswerSchema } from '../../shared/schemas/auth';
import {
  webhookCreatedSchema,
  webhookDeliveriesAnswerSchema,
  webhookInputSchema,
  webhooksAnswerSchema,
  webhookTestAnswerSchema,
  webhookUpdatedSchema,
} from '../../shared/schemas/webhook';
import * as webhooks from '../services/webhooks';

export const webhooksRouter = router({
  list: protectedProcedure
    .meta({ rest: { method: 'GET', path: '/api/webhooks', summary: 'Les webhooks de l’entreprise' } })
    .output(webhooksAnswerSchema)
    .query(({ ctx }) => webhooks.listWebhooks(ctx)),
  create: protectedProcedure
    .meta({
      rest: { method: 'POST', path: '/api/webhooks', status: 201, summary: 'Ajoute un webhook ; son secret est donné une seule fois' },
      feature: 'webhooks',
    })
    .input(webhookInputSchema)
    .output(webhookCreatedSchema)
    .mutation(async ({ ctx, input }) => ({ messages: 'Webhook ajouté', data: await webhooks.createWebhook(ctx, input) })),
  update: protectedProcedure
    .meta({ rest: { method: 'PUT', path: '/api/webhooks/{id}', bodyKey: 'data', summary: 'Modifie un webhook, l’active ou le désactive' } })
    .input(z.object({ id: idSchema, data: webhookInputSchema }))
    .output(webhookUpdatedSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Webhook mis à jour',
      data: await webhooks.updateWebhook(ctx, input.id, input.data),
    })),
  delete: protectedProcedure
    .meta({ rest: { method: 'DELETE', path: '/api/webhooks/{id}', summary: 'Supprime un webhook et son journal' } })
    .input(z.object({ id: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await webhooks.deleteWebhook(ctx, input.id);
      return { messages: 'Webhook supprimé' };
    }),
  deliveries: protectedProcedure
    .meta({ rest: { method: 'GET', path: '/api/webhooks/{id}/deliveries', summary: 'Les derniers envois d’un webhook et leurs réponses' } })
    .input(z.object({ id: idSchema }))
    .output(webhookDeliveriesAnswerSchema)
    .query(({ ctx, input }) => webhooks.deliveriesOf(ctx, input.id)),
  test: protectedProcedure
    .meta({
      rest: { method: 'POST', path: '/api/webhooks/{id}/test', summary: 'Envoie un événement « ping » de test' },
      feature: 'webhooks',
    })
    .input(z.object({ id: idSchema }))
    .output(webhookTestAnswerSchema)
    .mutation(({ ctx, input }) => webhooks.testWebhook(ctx, input.id)),
});
