import { z } from 'zod';
import { readProcedure, writeProcedure, router } from '../trpc';
import {
  recurringExpenseInputSchema,
  recurringExpenseListSchema,
  recurringExpenseSchema,
  recurringExpenseWriteSchema,
} from '../../shared/schemas/expense';
import { idSchema } from '../../shared/schemas/reference';
import { messageAnswerSchema } from '../../shared/schemas/answers';
import { clock } from '../clock';
import { todayIso } from '../services/document-record';
import {
  createRecurringExpense,
  editRecurringExpense,
  getRecurringExpense,
  listRecurring,
  generateRecurringExpenseNow,
  pauseRecurringExpense,
  removeRecurringExpense,
} from '../services/recurring-expenses';

export const recurringExpensesRouter = router({
  list: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/recurring-expenses', summary: 'Dépenses répétitives, avec leur prochaine date' } })
    .output(recurringExpenseListSchema)
    .query(({ ctx }) => listRecurring(ctx.db, ctx.organizationId)),
  get: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/recurring-expenses/{id}', summary: 'Une dépense répétitive' } })
    .input(z.object({ id: idSchema }))
    .output(recurringExpenseSchema)
    .query(({ ctx, input }) => getRecurringExpense(ctx.db, ctx.organizationId, input.id)),
  create: writeProcedure
    .meta({ rest: { method: 'POST', path: '/api/recurring-expenses', status: 201, summary: 'Crée une dépense répétitive' } })
    .input(recurringExpenseInputSchema)
    .output(recurringExpenseWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Ajouté avec succès',
      data: await createRecurringExpense(ctx.db, ctx.organizationId, input),
    })),
  update: writeProcedure
    .meta({ rest: { method: 'PUT', path: '/api/recurring-expenses/{id}', bodyKey: 'data', summary: 'Modifie une dépense répétitive' } })
    .input(z.object({ id: idSchema, data: recurringExpenseInputSchema }))
    .output(recurringExpenseWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Mis à jour avec succès',
      data: await editRecurringExpense(ctx.db, ctx.organizationId, input.id, input.data),
    })),
  pause: writeProcedure
    .meta({ rest: { method: 'POST', path: '/api/recurring-expenses/{id}/pause', summary: 'Met en pause ou reprend' } })
    .input(z.object({ id: idSchema, paused: z.boolean({ error: 'En pause : true ou false' }) }))
    .output(recurringExpenseWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: input.paused ? 'Mise en pause' : 'Reprise',
      data: await pauseRecurringExpense(ctx.db, ctx.organizationId, input.id, input.paused),
    })),
  generate: writeProcedure
    .meta({
      rest: { method: 'POST', path: '/api/recurring-expenses/{id}/generate', status: 201, summary: 'Crée maintenant la dépense due' },
    })
    .input(z.object({ id: idSchema }))
    .output(recurringExpenseWriteSchema)
    .mutation(({ ctx, input }) => generateRecurringExpenseNow(ctx.db, ctx.organizationId, input.id, todayIso(clock.now()))),
  delete: writeProcedure
    .meta({ rest: { method: 'DELETE', path: '/api/recurring-expenses/{id}', summary: 'Supprime une dépense répétitive' } })
    .input(z.object({ id: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await removeRecurringExpense(ctx.db, ctx.organizationId, input.id);
      return { messages: 'Supprimé avec succès' };
    }),
});
