import { z } from 'zod';
import { manageProcedure, readProcedure, writeProcedure, router } from '../trpc';
import {
  customerDuplicatesQuerySchema,
  customerDuplicatesSchema,
  customerInputSchema,
  customerListSchema,
  customerSchema,
  customerWriteSchema,
} from '../../shared/schemas/customer';
import { customerListQuerySchema } from '../../shared/schemas/customer-filters';
import { idSchema } from '../../shared/schemas/reference';
import { pageWindow } from '../../shared/schemas/filters';
import { csvFileSchema, csvImportInputSchema, csvImportReportSchema, writeAnswer, messageAnswerSchema } from '../../shared/schemas/answers';
import { CSV_FILE, FEEDBACK_BODY_LIMIT } from '../door-formats';
import { findCustomerDuplicates, listCustomers } from '../db/queries/customers';
import { archiveCustomer, getCustomer, restoreCustomer } from '../services/customers';
import { createCustomerWithDirectory, editCustomerWithDirectory, refreshCustomerDirectory } from '../services/einvoice-directory';
import { directoryStatusMessage } from '../../shared/einvoice-directory';
import { exportCustomers, importCustomers } from '../services/customer-csv';
import { importReportMessage } from '../services/csv-table';

/** The SIREN a SIREN or SIRET starts with ('' while fewer than 9 digits are typed). */
const sirenOf = (businessId: string): string => {
  const digits = businessId.replace(/\D/g, '');
  return digits.length >= 9 ? digits.slice(0, 9) : '';
};

export const customersRouter = router({
  list: readProcedure
    .meta({ kept: true, rest: { method: 'GET', path: '/api/customers', summary: 'Clients, filtrés et paginés' } })
    .input(customerListQuerySchema.optional())
    .output(customerListSchema)
    .query(({ ctx, input }) => {
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
  get: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/customers/{id}', summary: 'Un client' } })
    .input(z.object({ id: idSchema }))
    .output(customerSchema)
    .query(({ ctx, input }) => getCustomer(ctx.db, ctx.organizationId, input.id)),
  /** The customers a new (or edited) one would duplicate, asked before saving; the form offers to open them. */
  duplicates: readProcedure
    .input(customerDuplicatesQuerySchema)
    .output(customerDuplicatesSchema)
    .query(async ({ ctx, input }) => ({
      data: await findCustomerDuplicates(ctx.db, {
        organizationId: ctx.organizationId,
        siren: sirenOf(input.business_id),
        name: input.name,
        email: input.email,
        excludeId: input.exclude_id,
      }),
    })),
  create: writeProcedure
    .meta({ rest: { method: 'POST', path: '/api/customers', status: 201, summary: 'Crée un client' } })
    .input(customerInputSchema)
    .output(customerWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Ajouté avec succès',
      data: await createCustomerWithDirectory(ctx, ctx.organizationId, input),
    })),
  update: writeProcedure
    .meta({ rest: { method: 'PUT', path: '/api/customers/{id}', bodyKey: 'data', summary: 'Modifie un client' } })
    .input(z.object({ id: idSchema, data: customerInputSchema }))
    .output(customerWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Mis à jour avec succès',
      data: await editCustomerWithDirectory(ctx, ctx.organizationId, input.id, input.data),
    })),
  checkDirectory: writeProcedure
    .meta({
      heavy: true,
      rest: {
        method: 'POST',
        path: '/api/customers/{id}/directory',
        summary: 'Cherche le SIREN du client dans l’annuaire de la facturation électronique et garde son adresse',
      },
    })
    .input(z.object({ id: idSchema }))
    .output(customerWriteSchema)
    .mutation(async ({ ctx, input }) => {
      const data = await refreshCustomerDirectory(ctx, ctx.organizationId, input.id);
      return { messages: directoryStatusMessage(data), data };
    }),
  delete: manageProcedure
    .meta({ rest: { method: 'DELETE', path: '/api/customers/{id}', summary: 'Archive un client' } })
    .input(z.object({ id: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await archiveCustomer(ctx.db, ctx.organizationId, input.id, ctx.userId);
      // The record is archived, not deleted (its documents still name it): say so.
      return { messages: 'Archivé avec succès' };
    }),
  /** CSV import: `dry_run` reports every row without writing; otherwise the valid rows are created together. */
  import: writeProcedure
    .meta({
      heavy: true,
      rest: { method: 'POST', path: '/api/customers/import', bodyLimit: FEEDBACK_BODY_LIMIT, summary: 'Importe des clients (CSV)' },
    })
    .input(csvImportInputSchema)
    .output(writeAnswer(csvImportReportSchema))
    .mutation(async ({ ctx, input }) => {
      const report = await importCustomers(ctx.db, ctx.organizationId, input.csv, input.dry_run);
      return { messages: importReportMessage(report, input.dry_run, 'client'), data: report };
    }),
  export: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/customers/export', file: CSV_FILE, summary: 'Exporte les clients (CSV)' } })
    .output(csvFileSchema)
    .query(({ ctx }) => exportCustomers(ctx.db, ctx.organizationId)),
  restore: writeProcedure
    .meta({ rest: { method: 'POST', path: '/api/customers/{id}/restore', summary: 'Restaure un client archivé' } })
    .input(z.object({ id: idSchema }))
    .output(customerWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Restauré avec succès',
      data: await restoreCustomer(ctx.db, ctx.organizationId, input.id),
    })),
});
