import { z } from 'zod';
import { manageProcedure, readProcedure, router } from '../trpc';
import {
  idSchema,
  taxListSchema,
  taxRateInputSchema,
  taxWriteSchema,
  unitInputSchema,
  unitListSchema,
  unitWriteSchema,
} from '../../shared/schemas/reference';
import { messageAnswerSchema } from '../../shared/schemas/answers';
import { listTaxes, listUnits } from '../db/queries/reference';
import { createTax, createUnit, editTax, removeTax, removeUnit } from '../services/reference';

export const taxesRouter = router({
  list: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/taxes', summary: 'Taxes de l’entreprise' } })
    .output(taxListSchema)
    .query(async ({ ctx }) => {
      const data = await listTaxes(ctx.db, { organizationId: ctx.organizationId });
      return { total: data.length, data };
    }),
  create: manageProcedure
    .meta({ rest: { method: 'POST', path: '/api/taxes', status: 201, summary: 'Crée une taxe' } })
    .input(taxRateInputSchema)
    .output(taxWriteSchema)
    .mutation(async ({ ctx, input }) => ({ messages: 'Ajouté avec succès', data: await createTax(ctx.db, ctx.organizationId, input) })),
  update: manageProcedure
    .meta({ rest: { method: 'PUT', path: '/api/taxes/{id}', bodyKey: 'data', summary: 'Modifie une taxe' } })
    .input(z.object({ id: idSchema, data: taxRateInputSchema }))
    .output(taxWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Mis à jour avec succès',
      data: await editTax(ctx.db, ctx.organizationId, input.id, input.data),
    })),
  delete: manageProcedure
    .meta({ rest: { method: 'DELETE', path: '/api/taxes/{id}', summary: 'Supprime une taxe' } })
    .input(z.object({ id: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await removeTax(ctx.db, ctx.organizationId, input.id);
      return { messages: 'Supprimé avec succès' };
    }),
});

export const unitsRouter = router({
  list: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/units', summary: 'Unités de l’entreprise' } })
    .output(unitListSchema)
    .query(async ({ ctx }) => {
      const data = await listUnits(ctx.db, { organizationId: ctx.organizationId });
      return { total: data.length, data };
    }),
  create: manageProcedure
    .meta({ rest: { method: 'POST', path: '/api/units', status: 201, summary: 'Crée une unité' } })
    .input(unitInputSchema)
    .output(unitWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Ajouté avec succès',
      data: await createUnit(ctx.db, ctx.organizationId, input.name),
    })),
  delete: manageProcedure
    .meta({ rest: { method: 'DELETE', path: '/api/units/{id}', summary: 'Supprime une unité' } })
    .input(z.object({ id: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await removeUnit(ctx.db, ctx.organizationId, input.id);
      return { messages: 'Supprimé avec succès' };
    }),
});
