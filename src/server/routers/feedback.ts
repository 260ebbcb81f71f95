import { selfProcedure, router } from '../trpc';
import { feedbackInputSchema } from '../../shared/schemas/feedback';
import { messageAnswerSchema } from '../../shared/schemas/answers';
import { FEEDBACK_BODY_LIMIT } from '../door-formats';
import { recordFeedback } from '../services/feedback';

export const feedbackRouter = router({
  send: selfProcedure
    .meta({
      heavy: true,
      rest: { method: 'POST', path: '/api/feedback', bodyLimit: FEEDBACK_BODY_LIMIT, summary: 'Envoie un retour avec capture d’écran' },
    })
    .input(feedbackInputSchema)
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await recordFeedback(ctx.db, { organizationId: ctx.organizationId, userId: ctx.userId, input });
      return { messages: 'Votre feedback a été envoyé avec succès' };
    }),
});
