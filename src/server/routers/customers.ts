import { z } from 'zod';
import { protectedProcedure, router } from '../trpc';
import { customerInputSchema } from '../../shared/schemas/customer';
import { customerListQuerySchema } from '../../shared/schemas/customer-filters';
import { idSchema } from '../../shared/schemas/reference';
import { pageWindow } from '../../shared/schemas/filters';
import { listCustomers } from '../db/queries/customers';
import { archiveCustomer, createCustomer, editCustomer, getCustomer, restoreCustomer } from '../services/customers';
import { exportCustomers, importCustomers } from '../services/customer-csv';

export const customersRouter = router({
  list: protectedProcedure.input(customerListQuerySchema.optional()).query(({ ctx, input }) => {
    const q = customerListQuerySchema.parse(input ?? {});
    return listCustomers(ctx.db, {
      organizationId: ctx.organizationId,
      search: q.search || undefined,
      type: q.type,
      city: q.city || undefined,
      tagId: q.tag,
      unpaid: q.unpaid,
      archived: q.archived,
      sortBy: q.sort_by,
      sortOrder: q.sort_order,
      ...pageWindow(q),
    });
  }),
  get: protectedProcedure.input(z.object({ id: idSchema })).query(({ ctx, input }) => getCustomer(ctx.db, ctx.organizationId, input.id)),
  create: protectedProcedure.input(customerInputSchema).mutation(async ({ ctx, input }) => ({
    messages: 'Ajouté avec succès',
    data: await createCustomer(ctx.db, ctx.organizationId, input),
  })),
  update: protectedProcedure.input(z.object({ id: idSchema, data: customerInputSchema })).mutation(async ({ ctx, input }) => ({
    messages: 'Mis à jour avec succès',
    data: await editCustomer(ctx.db, ctx.organizationId, input.id, input.data),
  })),
  delete: protectedProcedure.input(z.object({ id: idSchema })).mutation(async ({ ctx, input }) => {
    await archiveCustomer(ctx.db, ctx.organizationId, input.id);
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
      const report = await importCustomers(ctx.db, ctx.organizationId, input.csv, input.dry_run);
      const messages = input.dry_run
        ? `${report.valid} client(s) prêts à importer, ${report.rejected.length} ligne(s) rejetée(s)`
        : `${report.created} client(s) importé(s)`;
      return { messages, data: report };
    }),
  export: protectedProcedure.query(({ ctx }) => exportCustomers(ctx.db, ctx.organizationId)),
  restore: protectedProcedure.input(z.object({ id: idSchema })).mutation(async ({ ctx, input }) => ({
    messages: 'Restauré avec succès',
    data: await restoreCustomer(ctx.db, ctx.organizationId, input.id),
  })),
});
