import { z } from 'zod';
import { manageProcedure, readProcedure, writeProcedure, router } from '../trpc';
import {
  expenseCategoryInputSchema,
  expenseCategorySchema,
  expenseImportSchema,
  expenseFiguresSchema,
  expenseInputSchema,
  expenseListQuerySchema,
  expenseListSchema,
  expenseSchema,
  expenseWriteSchema,
  receiptUploadSchema,
} from '../../shared/schemas/expense';
import { idSchema } from '../../shared/schemas/reference';
import { binaryFileSchema, csvFileSchema, listAnswer, writeAnswer, messageAnswerSchema } from '../../shared/schemas/answers';
import { listExpenses, listSuppliers } from '../db/queries/expenses';
import { expenseFigures } from '../db/queries/expense-figures';
import {
  archiveCategory,
  attachReceiptDataUrl,
  createExpense,
  deleteExpense,
  editExpense,
  expenseListParams,
  getCategories,
  getExpense,
  readReceipt,
  removeCategory,
  removeReceipt,
  saveCategory,
} from '../services/expenses';
import { exportExpenses } from '../services/expense-csv';
import { importSupplierInvoice } from '../services/expense-import';
import { expenseLifecycleInputSchema, expenseLifecycleSchema } from '../../shared/schemas/expense-lifecycle';
import { getExpenseLifecycle, sendExpenseStatus } from '../services/einvoice-status-out';
import { CSV_FILE } from '../door-formats';

/** A 10 MB file in base64 is 13.4 MB; the body may carry more, so that a 20 MB file is answered by name, not cut off. */
export const UPLOAD_BODY_LIMIT = 40 * 1024 * 1024;

export const expensesRouter = router({
  list: readProcedure
    .meta({
      kept: true,
      rest: { method: 'GET', path: '/api/expenses', summary: 'Dépenses, filtrées et paginées, avec les totaux du filtre' },
    })
    .input(expenseListQuerySchema.optional())
    .output(expenseListSchema)
    .query(({ ctx, input }) => listExpenses(ctx.db, expenseListParams(ctx.organizationId, expenseListQuerySchema.parse(input ?? {})))),
  export: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/expenses/export', file: CSV_FILE, summary: 'Exporte les dépenses filtrées (CSV)' } })
    .input(expenseListQuerySchema.optional())
    .output(csvFileSchema)
    .query(({ ctx, input }) => exportExpenses(ctx.db, ctx.organizationId, expenseListQuerySchema.parse(input ?? {}))),
  figures: readProcedure
    .meta({ kept: true, rest: { method: 'GET', path: '/api/expenses/figures', summary: 'Dépenses par mois et TVA déductible par taux' } })
    .input(
      z.object({
        from: z.iso.date({ error: 'Du : date attendue au format AAAA-MM-JJ' }).meta({ label: 'Du' }),
        to: z.iso.date({ error: 'Au : date attendue au format AAAA-MM-JJ' }).meta({ label: 'Au' }),
      }),
    )
    .output(expenseFiguresSchema)
    .query(({ ctx, input }) => expenseFigures(ctx.db, { organizationId: ctx.organizationId, ...input })),
  suppliers: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/expenses/suppliers', summary: 'Fournisseurs déjà payés, pour les suggestions' } })
    .input(z.object({ search: z.string().trim().max(200).optional() }).optional())
    .output(listAnswer(z.object({ name: z.string(), siren: z.string(), vat_number: z.string() })))
    .query(async ({ ctx, input }) => {
      const data = await listSuppliers(ctx.db, { organizationId: ctx.organizationId, search: input?.search || undefined, limit: 20 });
      return { total: data.length, data };
    }),
  categories: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/expenses/categories', summary: 'Catégories de dépenses et leurs comptes' } })
    .output(listAnswer(expenseCategorySchema))
    .query(async ({ ctx }) => {
      const data = await getCategories(ctx.db, ctx.organizationId);
      return { total: data.length, data };
    }),
  saveCategory: writeProcedure
    .meta({ rest: { method: 'POST', path: '/api/expenses/categories', summary: 'Ajoute ou modifie une catégorie de dépenses' } })
    .input(expenseCategoryInputSchema)
    .output(writeAnswer(expenseCategorySchema))
    .mutation(async ({ ctx, input }) => ({
      messages: 'Enregistré avec succès',
      data: await saveCategory(ctx.db, ctx.organizationId, input),
    })),
  deleteCategory: manageProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/expenses/categories/{code}',
        summary: 'Supprime une catégorie inutilisée ; archive celle qu’utilisent des dépenses',
      },
    })
    .input(z.object({ code: z.string().min(1).max(60) }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      const done = await removeCategory(ctx.db, ctx.organizationId, input.code);
      return {
        messages: done === 'deleted' ? 'Supprimé avec succès' : 'Catégorie archivée : elle reste sur les dépenses qui l’utilisent',
      };
    }),
  archiveCategory: manageProcedure
    .meta({
      rest: { method: 'PUT', path: '/api/expenses/categories/{code}/archive', summary: 'Archive ou restaure une catégorie de dépenses' },
    })
    .input(
      z.object({
        code: z.string().min(1).max(60),
        archived: z.boolean({ error: 'Archivée : oui ou non' }).meta({ label: 'Archivée' }),
      }),
    )
    .output(writeAnswer(expenseCategorySchema))
    .mutation(async ({ ctx, input }) => ({
      messages: input.archived ? 'Catégorie archivée' : 'Catégorie restaurée',
      data: await archiveCategory(ctx.db, ctx.organizationId, input.code, input.archived),
    })),
  importEinvoice: writeProcedure
    .meta({
      limit: { key: 'storage' },
      heavy: true,
      rest: {
        method: 'POST',
        path: '/api/expenses/import',
        status: 201,
        bodyLimit: UPLOAD_BODY_LIMIT,
        summary: 'Importe la facture électronique d’un fournisseur (Factur-X/ZUGFeRD, CII ou UBL) en nouvelle dépense',
      },
    })
    .input(expenseImportSchema)
    .output(expenseWriteSchema.extend({ warnings: z.array(z.string()) }))
    .mutation(async ({ ctx, input }) => {
      const { expense, warnings } = await importSupplierInvoice(ctx.db, ctx.env.dataDir, ctx.organizationId, input);
      const what = expense.kind === 'credit_note' ? 'Avoir importé' : 'Facture importée';
      return { messages: `${what} : vérifiez la catégorie`, data: expense, warnings };
    }),
  get: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/expenses/{id}', summary: 'Une dépense' } })
    .input(z.object({ id: idSchema }))
    .output(expenseSchema)
    .query(({ ctx, input }) => getExpense(ctx.db, ctx.organizationId, input.id)),
  lifecycle: readProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/expenses/{id}/lifecycle',
        summary: 'Les statuts envoyés au fournisseur d’une facture reçue de la plateforme',
      },
    })
    .input(z.object({ id: idSchema }))
    .output(expenseLifecycleSchema)
    .query(({ ctx, input }) => getExpenseLifecycle(ctx.db, ctx.organizationId, input.id)),
  sendStatus: writeProcedure
    .meta({
      heavy: true,
      rest: {
        method: 'POST',
        path: '/api/expenses/{id}/lifecycle',
        bodyKey: 'data',
        summary: 'Approuve, refuse ou conteste une facture fournisseur reçue de la plateforme (message de cycle de vie)',
      },
    })
    .input(z.object({ id: idSchema, data: expenseLifecycleInputSchema }))
    .output(writeAnswer(expenseLifecycleSchema))
    .mutation(({ ctx, input }) => sendExpenseStatus({ db: ctx.db, outbox: ctx.einvoice.outbox }, ctx.organizationId, input.id, input.data)),
  create: writeProcedure
    .meta({ rest: { method: 'POST', path: '/api/expenses', status: 201, summary: 'Crée une dépense' } })
    .input(expenseInputSchema)
    .output(expenseWriteSchema)
    .mutation(async ({ ctx, input }) => ({ messages: 'Ajouté avec succès', data: await createExpense(ctx.db, ctx.organizationId, input) })),
  update: writeProcedure
    .meta({ rest: { method: 'PUT', path: '/api/expenses/{id}', bodyKey: 'data', summary: 'Modifie une dépense' } })
    .input(z.object({ id: idSchema, data: expenseInputSchema }))
    .output(expenseWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Mis à jour avec succès',
      data: await editExpense(ctx.db, ctx.organizationId, input.id, input.data),
    })),
  delete: writeProcedure
    .meta({ rest: { method: 'DELETE', path: '/api/expenses/{id}', summary: 'Supprime une dépense et son justificatif' } })
    .input(z.object({ id: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await deleteExpense(ctx.db, ctx.env.dataDir, ctx.organizationId, input.id);
      return { messages: 'Supprimé avec succès' };
    }),
  attachReceipt: writeProcedure
    .meta({
      limit: { key: 'storage' },
      heavy: true,
      rest: {
        method: 'POST',
        path: '/api/expenses/{id}/receipt',
        bodyLimit: UPLOAD_BODY_LIMIT,
        summary: 'Joint un justificatif (PDF, PNG, JPEG, WebP ; 10 Mo)',
      },
    })
    .input(receiptUploadSchema.extend({ id: idSchema }))
    .output(expenseWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Justificatif enregistré',
      data: await attachReceiptDataUrl(ctx.db, ctx.env.dataDir, ctx.organizationId, input.id, input.filename, input.data_url),
    })),
  receipt: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/expenses/{id}/receipt', file: { inline: true }, summary: 'Le justificatif, affiché' } })
    .input(z.object({ id: idSchema }))
    .output(binaryFileSchema)
    .query(({ ctx, input }) => readReceipt(ctx.db, ctx.env.dataDir, ctx.organizationId, input.id)),
  removeReceipt: writeProcedure
    .meta({ rest: { method: 'DELETE', path: '/api/expenses/{id}/receipt', summary: 'Retire le justificatif' } })
    .input(z.object({ id: idSchema }))
    .output(expenseWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Justificatif retiré',
      data: await removeReceipt(ctx.db, ctx.env.dataDir, ctx.organizationId, input.id),
    })),
});
