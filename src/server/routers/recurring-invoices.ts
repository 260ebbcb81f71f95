import { z } from 'zod';
import { readProcedure, writeProcedure, router } from '../trpc';
import {
  recurringInvoiceInputSchema,
  recurringInvoiceListSchema,
  recurringInvoiceSchema,
  recurringInvoiceWriteSchema,
} from '../../shared/schemas/recurring-invoice';
import { documentWriteSchema } from '../../shared/schemas/document-model';
import { idSchema } from '../../shared/schemas/reference';
import { messageAnswerSchema } from '../../shared/schemas/answers';
import { clock } from '../clock';
import { todayIso } from '../services/document-record';
import {
  createRecurringInvoice,
  editRecurringInvoice,
  generateNow,
  getRecurringInvoice,
  listRecurringInvoiceModels,
  pauseRecurringInvoice,
  removeRecurringInvoice,
} from '../services/recurring-invoices';

/** Recurring invoices (/api/recurring): the models and « Générer maintenant ». */
export const recurringInvoicesRouter = router({
  list: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/recurring', summary: 'Factures récurrentes, avec leur prochaine date' } })
    .output(recurringInvoiceListSchema)
    .query(({ ctx }) => listRecurringInvoiceModels(ctx.db, ctx.organizationId)),
  get: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/recurring/{id}', summary: 'Une facture régulière' } })
    .input(z.object({ id: idSchema }))
    .output(recurringInvoiceSchema)
    .query(({ ctx, input }) => getRecurringInvoice(ctx.db, ctx.organizationId, input.id)),
  create: writeProcedure
    .meta({ rest: { method: 'POST', path: '/api/recurring', status: 201, summary: 'Crée une facture régulière' } })
    .input(recurringInvoiceInputSchema)
    .output(recurringInvoiceWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Ajouté avec succès',
      data: await createRecurringInvoice(ctx.db, ctx.organizationId, input),
    })),
  update: writeProcedure
    .meta({ rest: { method: 'PUT', path: '/api/recurring/{id}', bodyKey: 'data', summary: 'Modifie une facture régulière' } })
    .input(z.object({ id: idSchema, data: recurringInvoiceInputSchema }))
    .output(recurringInvoiceWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Mis à jour avec succès',
      data: await editRecurringInvoice(ctx.db, ctx.organizationId, input.id, input.data),
    })),
  pause: writeProcedure
    .meta({ rest: { method: 'POST', path: '/api/recurring/{id}/pause', summary: 'Met en pause ou reprend une facture régulière' } })
    .input(z.object({ id: idSchema, paused: z.boolean({ error: 'En pause : true ou false' }) }))
    .output(recurringInvoiceWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: input.paused ? 'Mise en pause' : 'Reprise',
      data: await pauseRecurringInvoice(ctx.db, ctx.organizationId, input.id, input.paused, todayIso(clock.now())),
    })),
  generate: writeProcedure
    .meta({
      upstream: true,
      limit: { key: 'documents' },
      heavy: true,
      rest: { method: 'POST', path: '/api/recurring/{id}/generate', status: 201, summary: 'Génère maintenant la prochaine facture' },
    })
    .input(z.object({ id: idSchema }))
    .output(documentWriteSchema)
    .mutation(async ({ ctx, input }) => {
      const { document, messages } = await generateNow(ctx, ctx.organizationId, input.id, todayIso(clock.now()));
      return { messages, data: document };
    }),
  delete: writeProcedure
    .meta({ rest: { method: 'DELETE', path: '/api/recurring/{id}', summary: 'Supprime une facture régulière (ses factures restent)' } })
    .input(z.object({ id: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await removeRecurringInvoice(ctx.db, ctx.organizationId, input.id);
      return { messages: 'Supprimé avec succès' };
    }),
});
