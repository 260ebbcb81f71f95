import { z } from 'zod';
import { directoryWarningOf } from '../services/einvoice-directory';
import { READY_TO_ISSUE } from '../../shared/einvoice-directory';
import { readProcedure, writeProcedure, router } from '../trpc';
import { baseVersionSchema, documentInputSchema, documentTypeSchema, documentUpdateSchema } from '../../shared/schemas/document';
import { listFiltersSchema, pageWindow } from '../../shared/schemas/filters';
import { creditRefundInputSchema, creditSettlementSchema, paymentInputSchema, paymentSchema } from '../../shared/schemas/payment';
import { documentListSchema, documentSchema, documentWriteSchema } from '../../shared/schemas/document-model';
import { idSchema } from '../../shared/schemas/reference';
import { periodRange } from '../../shared/periods';
import { listDocuments } from '../db/queries/document-lists';
import { createDocument, editDocument, getDocument, removeDocument } from '../services/documents';
import { changeStatus, issueDocument, markSent } from '../services/document-lifecycle';
import { convertDocument, createDepositInvoice, duplicateDocument } from '../services/document-conversions';
import { correctPayment, getPayments, recordPayment, reversePayment } from '../services/payments';
import { refundCredit } from '../services/credit-settlement';
import { todayIso } from '../services/document-record';
import { messageAnswerSchema, textFileSchema } from '../../shared/schemas/answers';
import { einvoiceFile } from '../services/einvoice-xml';

/** A credit note corrects an issued invoice (CGI art. 272): the law asks for it, so no plan limit refuses it. */
const isCreditNote = (raw: unknown): boolean => typeof raw === 'object' && raw !== null && (raw as { type?: unknown }).type === 'credit';

const einvoiceFormatSchema = z
  .enum(['cii', 'ubl'], { error: 'Format : cii (UN/CEFACT CII, celui de Factur-X) ou ubl (UBL 2.1)' })
  .default('cii')
  .meta({ label: 'Format' });

const statusSchema = z.enum(['pending', 'accepted', 'refused', 'done'], { error: 'Statut : pending, accepted, refused ou done' });
const depositSchema = z
  .object({
    percent: z
      .number({ error: 'Acompte : un pourcentage est attendu' })
      .gt(0, 'Acompte : plus de 0 %')
      .max(100, 'Acompte : 100 % au plus')
      .optional(),
    amount: z.number({ error: 'Acompte : un montant est attendu' }).gt(0, 'Acompte : un montant positif').max(1e12).optional(),
  })
  .refine((d) => (d.percent === undefined) !== (d.amount === undefined), 'Acompte : indiquez un pourcentage ou un montant, pas les deux');
const creditLinesSchema = z
  .array(z.object({ id: z.number().int().positive(), quantity: z.number().positive('Quantité à créditer : positive') }))
  .max(2000);

const paymentWriteSchema = z.object({ messages: z.string(), data: paymentSchema });

export const documentsRouter = router({
  list: readProcedure
    .meta({ kept: true, rest: { method: 'GET', path: '/api/documents', summary: 'Liste des documents, filtrée et paginée' } })
    .input(listFiltersSchema.optional())
    .output(documentListSchema)
    .query(async ({ ctx, input }) => {
      const f = listFiltersSchema.parse(input ?? {});
      // Recurring invoices are a list type of their own, not stored yet: none to list.
      if (f.type === 'recurring') return { total: 0, data: [] };
      const today = todayIso();
      const range = f.period ? periodRange(f.period, today, { from: f.from, to: f.to }) : { from: f.from, to: f.to };
      return listDocuments(ctx.db, {
        organizationId: ctx.organizationId,
        type: f.type,
        status: f.status || undefined,
        search: f.search || undefined,
        ...range,
        minAmount: f.min_amount,
        maxAmount: f.max_amount,
        customerId: f.customer,
        today,
        sortBy: f.sort_by,
        sortOrder: f.sort_order,
        ...pageWindow(f),
      });
    }),
  get: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/documents/{id}', summary: 'Un document, ses lignes et ses totaux' } })
    .input(z.object({ id: idSchema }))
    .output(documentSchema)
    .query(({ ctx, input }) => getDocument(ctx.db, ctx.organizationId, input.id)),
  /** The issued invoice or credit note as EN 16931 XML (CII D16B or UBL 2.1); the REST door sends the file. */
  einvoice: readProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/documents/{id}/einvoice',
        file: { contentType: 'application/xml', charset: 'utf-8' },
        summary: 'Facture électronique EN 16931 (CII ou UBL) d’une facture ou d’un avoir émis',
      },
    })
    .input(z.object({ id: idSchema, format: einvoiceFormatSchema }))
    .output(textFileSchema)
    .query(({ ctx, input }) => einvoiceFile(ctx.db, ctx.organizationId, input.id, input.format)),
  create: writeProcedure
    .meta({
      limit: { key: 'documents', exempt: isCreditNote },
      rest: { method: 'POST', path: '/api/documents', status: 201, summary: 'Crée un document (brouillon)' },
    })
    .input(documentInputSchema)
    .output(documentWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Ajouté avec succès',
      data: await createDocument(ctx.db, ctx.organizationId, input),
    })),
  update: writeProcedure
    .meta({ rest: { method: 'PUT', path: '/api/documents/{id}', bodyKey: 'data', summary: 'Modifie un document' } })
    .input(z.object({ id: idSchema, data: documentUpdateSchema }))
    .output(documentWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Mis à jour avec succès',
      data: await editDocument(ctx.db, ctx.organizationId, input.id, input.data),
    })),
  delete: writeProcedure
    .meta({
      rest: { method: 'DELETE', path: '/api/documents/{id}', summary: 'Supprime un document (jamais une facture ou un avoir émis)' },
    })
    .input(z.object({ id: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await removeDocument(ctx.db, ctx.organizationId, input.id);
      return { messages: 'Supprimé avec succès' };
    }),
  issue: writeProcedure
    .meta({
      rest: { method: 'POST', path: '/api/documents/{id}/issue', summary: 'Émet un brouillon : il prend le numéro suivant de sa série' },
    })
    .input(
      z.object({
        id: idSchema,
        base_updated_at: baseVersionSchema,
        /** C. com. L441-10: a business customer's term past 60 days was agreed; without it such an invoice answers 409. */
        confirm_payment_terms: z.boolean().optional().meta({ label: 'Délai de paiement confirmé' }),
        /** Every check of an issue, nothing written: the screen validates before it asks « Émettre définitivement ? ». */
        dry_run: z.boolean({ error: 'Vérification seule : oui ou non' }).optional().meta({ label: 'Vérification seule' }),
      }),
    )
    .output(documentWriteSchema)
    .mutation(async ({ ctx, input }) => {
      const data = await issueDocument(ctx.db, ctx.organizationId, input.id, {
        baseUpdatedAt: input.base_updated_at,
        userId: ctx.userId,
        confirmPaymentTerms: input.confirm_payment_terms,
        dryRun: input.dry_run,
      });
      // The check before « Émettre définitivement ? » also says when the directory does not list the customer.
      if (input.dry_run)
        return { messages: (await directoryWarningOf(ctx.db, ctx.organizationId, data.customer_id)) ?? READY_TO_ISSUE, data };
      ctx.issueArchiver.afterIssue(ctx.organizationId, data.id, ctx.userId);
      return { messages: `Document émis sous le n° ${data.number}`, data };
    }),
  setStatus: writeProcedure
    .meta({ rest: { method: 'POST', path: '/api/documents/{id}/status', summary: 'Change à la main le statut d’un document' } })
    .input(z.object({ id: idSchema, status: statusSchema }))
    .output(documentWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Mis à jour avec succès',
      data: await changeStatus(ctx.db, ctx.organizationId, input.id, input.status),
    })),
  markSent: writeProcedure
    .meta({ rest: { method: 'POST', path: '/api/documents/{id}/sent', summary: 'Marque un document comme envoyé' } })
    .input(z.object({ id: idSchema }))
    .output(documentWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Mis à jour avec succès',
      data: await markSent(ctx.db, ctx.organizationId, input.id),
    })),
  convert: writeProcedure
    .meta({
      limit: { key: 'documents', exempt: isCreditNote },
      rest: {
        method: 'POST',
        path: '/api/documents/{id}/convert',
        status: 201,
        summary: 'Transforme un document (devis en facture, facture en avoir…)',
      },
    })
    .input(
      z.object({
        id: idSchema,
        type: documentTypeSchema,
        lines: creditLinesSchema.optional(),
        // A credit note by lines may credit shipping too, up to the invoice's.
        shipping: z
          .number({ error: 'Frais de port à créditer : un nombre est attendu' })
          .min(0, 'Frais de port à créditer : positifs')
          .optional(),
      }),
    )
    .output(documentWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Ajouté avec succès',
      data: await convertDocument(ctx.db, ctx.organizationId, input.id, input.type, input.lines, input.shipping),
    })),
  duplicate: writeProcedure
    .meta({
      limit: { key: 'documents' },
      heavy: true,
      rest: { method: 'POST', path: '/api/documents/{id}/duplicate', status: 201, summary: 'Duplique un document en un nouveau brouillon' },
    })
    .input(z.object({ id: idSchema }))
    .output(documentWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Ajouté avec succès',
      data: await duplicateDocument(ctx.db, ctx.organizationId, input.id),
    })),
  deposit: writeProcedure
    .meta({
      limit: { key: 'documents' },
      rest: {
        method: 'POST',
        path: '/api/documents/{id}/deposit',
        status: 201,
        summary: 'Facture d’acompte sur un devis ou une commande émis',
      },
    })
    .input(z.object({ id: idSchema }).and(depositSchema))
    .output(documentWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Ajouté avec succès',
      data: await createDepositInvoice(ctx.db, ctx.organizationId, input.id, input),
    })),
  payments: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/documents/{id}/payments', summary: 'Les paiements d’un document' } })
    .input(z.object({ id: idSchema }))
    .output(z.object({ total: z.number().int(), data: z.array(paymentSchema) }))
    .query(({ ctx, input }) => getPayments(ctx.db, ctx.organizationId, input.id)),
  refundCredit: writeProcedure
    .meta({
      rest: { method: 'POST', path: '/api/documents/{id}/refund', status: 201, bodyKey: 'data', summary: 'Rembourse le crédit d’un avoir' },
    })
    .input(z.object({ id: idSchema, data: creditRefundInputSchema }))
    .output(z.object({ messages: z.string(), data: creditSettlementSchema }))
    .mutation(async ({ ctx, input }) => ({
      messages: 'Remboursement enregistré',
      data: await refundCredit(ctx.db, ctx.organizationId, input.id, input.data),
    })),
  recordPayment: writeProcedure
    .meta({
      rest: { method: 'POST', path: '/api/documents/{id}/payments', status: 201, bodyKey: 'data', summary: 'Enregistre un paiement' },
    })
    .input(z.object({ id: idSchema, data: paymentInputSchema }))
    .output(paymentWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Ajouté avec succès',
      data: await recordPayment(ctx.db, ctx.organizationId, input.id, input.data, ctx.userId),
    })),
  /** A recorded payment is never rewritten: the old one is reversed by a counter-entry and the new one recorded. */
  updatePayment: writeProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/documents/{id}/payments/{paymentId}',
        bodyKey: 'data',
        summary: 'Corrige un paiement (contre-passé puis enregistré à nouveau)',
      },
    })
    .input(z.object({ id: idSchema, paymentId: idSchema, data: paymentInputSchema }))
    .output(paymentWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Paiement corrigé : l’ancien est annulé par une contre-écriture',
      data: await correctPayment(ctx.db, ctx.organizationId, input.id, input.paymentId, input.data, ctx.userId),
    })),
  /** Payments are never deleted: DELETE records a counter-entry that cancels the payment. */
  deletePayment: writeProcedure
    .meta({
      rest: {
        method: 'DELETE',
        path: '/api/documents/{id}/payments/{paymentId}',
        summary: 'Annule un paiement (une contre-écriture au journal)',
      },
    })
    .input(z.object({ id: idSchema, paymentId: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await reversePayment(ctx.db, ctx.organizationId, input.id, input.paymentId, ctx.userId);
      return { messages: 'Paiement annulé par une contre-écriture' };
    }),
});
