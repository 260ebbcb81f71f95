import { z } from 'zod';
import { protectedProcedure, router } from '../trpc';
import { idSchema, taxRateInputSchema, unitInputSchema } from '../../shared/schemas/reference';
import { listTaxes, listUnits } from '../db/queries/reference';
import { createTax, createUnit, editTax, removeTax, removeUnit } from '../services/reference';

export const taxesRouter = router({
  list: protectedProcedure.query(async ({ ctx }) => {
    const data = await listTaxes(ctx.db, { organizationId: ctx.organizationId });
    return { total: data.length, data };
  }),
  create: protectedProcedure
    .input(taxRateInputSchema)
    .mutation(async ({ ctx, input }) => ({ messages: 'Ajouté avec succès', data: await createTax(ctx.db, ctx.organizationId, input) })),
  update: protectedProcedure.input(z.object({ id: idSchema, data: taxRateInputSchema })).mutation(async ({ ctx, input }) => ({
    messages: 'Mis à jour avec succès',
    data: await editTax(ctx.db, ctx.organizationId, input.id, input.data),
  })),
  delete: protectedProcedure.input(z.object({ id: idSchema })).mutation(async ({ ctx, input }) => {
    await removeTax(ctx.db, ctx.organizationId, input.id);
    return { messages: 'Supprimé avec succès' };
  }),
});

export const unitsRouter = router({
  list: protectedProcedure.query(async ({ ctx }) => {
    const data = await listUnits(ctx.db, { organizationId: ctx.organizationId });
    return { total: data.length, data };
  }),
  create: protectedProcedure.input(unitInputSchema).mutation(async ({ ctx, input }) => ({
    messages: 'Ajouté avec succès',
    data: await createUnit(ctx.db, ctx.organizationId, input.name),
  })),
  delete: protectedProcedure.input(z.object({ id: idSchema })).mutation(async ({ ctx, input }) => {
    await removeUnit(ctx.db, ctx.organizationId, input.id);
    return { messages: 'Supprimé avec succès' };
  }),
});
