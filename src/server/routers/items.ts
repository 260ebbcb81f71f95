import { z } from 'zod';
import { manageProcedure, readProcedure, writeProcedure, router } from '../trpc';
import { itemInputSchema, itemListQuerySchema, itemListSchema, itemSchema, itemWriteSchema } from '../../shared/schemas/item';
import { idSchema } from '../../shared/schemas/reference';
import { pageWindow } from '../../shared/schemas/filters';
import { csvFileSchema, csvImportInputSchema, csvImportReportSchema, writeAnswer, messageAnswerSchema } from '../../shared/schemas/answers';
import { CSV_FILE, FEEDBACK_BODY_LIMIT } from '../door-formats';
import { listItems } from '../db/queries/items';
import { archiveItem, createItem, editItem, getItem, restoreItem } from '../services/items';
import { exportItems, importItems } from '../services/item-csv';
import { importReportMessage } from '../services/csv-table';

export const itemsRouter = router({
  list: readProcedure
    .meta({ kept: true, rest: { method: 'GET', path: '/api/items', summary: 'Articles, filtrés et paginés' } })
    .input(itemListQuerySchema.optional())
    .output(itemListSchema)
    .query(({ ctx, input }) => {
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
  get: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/items/{id}', summary: 'Un article' } })
    .input(z.object({ id: idSchema }))
    .output(itemSchema)
    .query(({ ctx, input }) => getItem(ctx.db, ctx.organizationId, input.id)),
  create: writeProcedure
    .meta({ rest: { method: 'POST', path: '/api/items', status: 201, summary: 'Crée un article' } })
    .input(itemInputSchema)
    .output(itemWriteSchema)
    .mutation(async ({ ctx, input }) => ({ messages: 'Ajouté avec succès', data: await createItem(ctx.db, ctx.organizationId, input) })),
  update: writeProcedure
    .meta({ rest: { method: 'PUT', path: '/api/items/{id}', bodyKey: 'data', summary: 'Modifie un article' } })
    .input(z.object({ id: idSchema, data: itemInputSchema }))
    .output(itemWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Mis à jour avec succès',
      data: await editItem(ctx.db, ctx.organizationId, input.id, input.data),
    })),
  delete: manageProcedure
    .meta({ rest: { method: 'DELETE', path: '/api/items/{id}', summary: 'Archive un article' } })
    .input(z.object({ id: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await archiveItem(ctx.db, ctx.organizationId, input.id);
      // The record is archived, not deleted (its documents still name it): say so.
      return { messages: 'Archivé avec succès' };
    }),
  /** CSV import: `dry_run` reports every row without writing; otherwise the valid rows are created together. */
  import: writeProcedure
    .meta({
      heavy: true,
      rest: { method: 'POST', path: '/api/items/import', bodyLimit: FEEDBACK_BODY_LIMIT, summary: 'Importe des articles (CSV)' },
    })
    .input(csvImportInputSchema)
    .output(writeAnswer(csvImportReportSchema))
    .mutation(async ({ ctx, input }) => {
      const report = await importItems(ctx.db, ctx.organizationId, input.csv, input.dry_run);
      return { messages: importReportMessage(report, input.dry_run, 'article'), data: report };
    }),
  export: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/items/export', file: CSV_FILE, summary: 'Exporte les articles (CSV)' } })
    .output(csvFileSchema)
    .query(({ ctx }) => exportItems(ctx.db, ctx.organizationId)),
  restore: writeProcedure
    .meta({ rest: { method: 'POST', path: '/api/items/{id}/restore', summary: 'Restaure un article archivé' } })
    .input(z.object({ id: idSchema }))
    .output(itemWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Restauré avec succès',
      data: await restoreItem(ctx.db, ctx.organizationId, input.id),
    })),
});
