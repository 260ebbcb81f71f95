import { z } from 'zod';
import { protectedProcedure, router } from '../trpc';
import { itemInputSchema, itemListQuerySchema } from '../../shared/schemas/item';
import { idSchema } from '../../shared/schemas/reference';
import { pageWindow } from '../../shared/schemas/filters';
import { listItems } from '../db/queries/items';
import { archiveItem, createItem, editItem, getItem, restoreItem } from '../services/items';

export const itemsRouter = router({
  list: protectedProcedure.input(itemListQuerySchema.optional()).query(({ ctx, input }) => {
    const q = itemListQuerySchema.parse(input ?? {});
    return listItems(ctx.db, {
      organizationId: ctx.organizationId,
      search: q.search || undefined,
      kind: q.kind,
      active: q.active,
      archived: q.archived,
      sortBy: q.sort_by,
      sortOrder: q.sort_order,
      ...pageWindow(q),
    });
  }),
  get: protectedProcedure.input(z.object({ id: idSchema })).query(({ ctx, input }) => getItem(ctx.db, ctx.organizationId, input.id)),
  create: protectedProcedure.input(itemInputSchema).mutation(async ({ ctx, input }) => ({ messages: 'Ajouté avec succès', data: await createItem(ctx.db, ctx.organizationId, input) })),
  update: protectedProcedure
    .input(z.object({ id: idSchema, data: itemInputSchema }))
    .mutation(async ({ ctx, input }) => ({ messages: 'Mis à jour avec succès', data: await editItem(ctx.db, ctx.organizationId, input.id, input.data) })),
  delete: protectedProcedure.input(z.object({ id: idSchema })).mutation(async ({ ctx, input }) => {
    await archiveItem(ctx.db, ctx.organizationId, input.id);
    return { messages: 'Supprimé avec succès' };
  }),
  restore: protectedProcedure.input(z.object({ id: idSchema })).mutation(async ({ ctx, input }) => ({ messages: 'Restauré avec succès', data: await restoreItem(ctx.db, ctx.organizationId, input.id) })),
});
