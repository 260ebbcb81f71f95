import { z } from 'zod';
import { protectedProcedure, router } from '../trpc';
import { itemInputSchema, itemListQuerySchema } from '../../shared/schemas/item';
import { idSchema } from '../../shared/schemas/reference';
import { pageWindow } from '../../shared/schemas/filters';
import { listItems } from '../db/queries/items';
import { archiveItem, createItem, editItem, getItem, restoreItem } from '../services/items';
import { exportItems, importItems } from '../services/item-csv';

export const itemsRouter = router({
  list: protectedProcedure.input(itemListQuerySchema.optional()).query(({ ctx, input }) => {
    const q = itemListQuerySchema.parse(input ?? {});
    return listItems(ctx.db, {
      organizationId: ctx.organizationId,
      search: q.search || undefined,
      kind: q.kind,
      active: q.active,
      tagId: q.tag,
      archived: q.archived,
      sortBy: q.sort_by,
      sortOrder: q.sort_order,
      ...pageWindow(q),
    });
  }),
  get: protectedProcedure.input(z.object({ id: idSchema })).query(({ ctx, input }) => getItem(ctx.db, ctx.organizationId, input.id)),
  create: protectedProcedure
    .input(itemInputSchema)
    .mutation(async ({ ctx, input }) => ({ messages: 'Ajouté avec succès', data: await createItem(ctx.db, ctx.organizationId, input) })),
  update: protectedProcedure.input(z.object({ id: idSchema, data: itemInputSchema })).mutation(async ({ ctx, input }) => ({
    messages: 'Mis à jour avec succès',
    data: await editItem(ctx.db, ctx.organizationId, input.id, input.data),
  })),
  delete: protectedProcedure.input(z.object({ id: idSchema })).mutation(async ({ ctx, input }) => {
    await archiveItem(ctx.db, ctx.organizationId, input.id);
    return { messages: 'Supprimé avec succès' };
  }),
  /** CSV import: `dry_run` reports every row without writing; otherwise the valid rows are created together. */
  import: protectedProcedure
    .input(
      z.object({
        csv: z.string({ error: 'Le contenu du fichier est attendu' }).max(10 * 1024 * 1024, 'Le fichier dépasse 10 Mo'),
        dry_run: z.boolean().default(true),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const report = await importItems(ctx.db, ctx.organizationId, input.csv, input.dry_run);
      const messages = input.dry_run
        ? `${report.valid} article(s) prêts à importer, ${report.rejected.length} ligne(s) rejetée(s)`
        : `${report.created} article(s) importé(s)`;
      return { messages, data: report };
    }),
  export: protectedProcedure.query(({ ctx }) => exportItems(ctx.db, ctx.organizationId)),
  restore: protectedProcedure.input(z.object({ id: idSchema })).mutation(async ({ ctx, input }) => ({
    messages: 'Restauré avec succès',
    data: await restoreItem(ctx.db, ctx.organizationId, input.id),
  })),
});
