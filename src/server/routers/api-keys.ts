import { z } from 'zod';
import { manageProcedure, router } from '../trpc';
import { idSchema } from '../../shared/schemas/reference';
import { messageAnswerSchema } from '../../shared/schemas/answers';
import { apiKeyCreatedSchema, apiKeyInputSchema, apiKeysAnswerSchema } from '../../shared/schemas/api-keys';
import * as apiKeys from '../services/api-keys';

export const apiKeysRouter = router({
  list: manageProcedure
    .meta({ rest: { method: 'GET', path: '/api/api-keys', summary: 'Les clés d’API de l’entreprise (jamais leur secret)' } })
    .output(apiKeysAnswerSchema)
    .query(({ ctx }) => apiKeys.apiKeysOf(ctx)),
  create: manageProcedure
    .meta({
      rest: { method: 'POST', path: '/api/api-keys', status: 201, summary: 'Crée une clé d’API ; son secret n’est donné qu’ici' },
      feature: 'api',
    })
    .input(apiKeyInputSchema)
    .output(apiKeyCreatedSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Clé d’API créée : copiez-la maintenant, elle ne sera plus affichée',
      data: await apiKeys.createApiKey(ctx, input),
    })),
  revoke: manageProcedure
    .meta({ rest: { method: 'DELETE', path: '/api/api-keys/{id}', summary: 'Révoque une clé d’API' } })
    .input(z.object({ id: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await apiKeys.revokeKey(ctx, input.id);
      return { messages: 'Clé d’API révoquée' };
    }),
});
