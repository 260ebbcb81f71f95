import { z } from 'zod';
import { readProcedure, writeProcedure, router } from '../trpc';
import { idSchema } from '../../shared/schemas/reference';
import { mailDraftSchema, quoteResponseSchema, sendDocumentInputSchema } from '../../shared/schemas/document-mail';
import { mailDraft, sendDocument } from '../services/document-mail';
import { getQuoteResponse } from '../services/quote-response';

/** A document sent to its customer by e-mail, and the answer a customer gave to an estimate online. */
export const documentMailRouter = router({
  draft: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/documents/{id}/send', summary: 'Brouillon de l’e-mail d’envoi d’un document' } })
    .input(z.object({ id: idSchema }))
    .output(mailDraftSchema)
    .query(({ ctx, input }) => mailDraft(ctx, ctx.organizationId, input.id)),
  send: writeProcedure
    .meta({
      upstream: true,
      heavy: true,
      rest: { method: 'POST', path: '/api/documents/{id}/send', summary: 'Envoie un document par e-mail, PDF joint' },
    })
    .input(z.object({ id: idSchema }).extend(sendDocumentInputSchema.shape))
    .output(z.object({ messages: z.string(), sent_to: z.array(z.string()) }))
    .mutation(async ({ ctx, input }) => {
      const { id, ...mail } = input;
      const { messages, sentTo } = await sendDocument(ctx, ctx.organizationId, id, mail);
      return { messages, sent_to: sentTo };
    }),
  response: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/documents/{id}/response', summary: 'Réponse du client à un devis en ligne' } })
    .input(z.object({ id: idSchema }))
    .output(z.object({ data: quoteResponseSchema.nullable() }))
    .query(async ({ ctx, input }) => ({ data: await getQuoteResponse(ctx.db, ctx.organizationId, input.id) })),
});
