import { z } from 'zod';
import { manageProcedure, readProcedure, writeProcedure, router } from '../trpc';
import { idSchema } from '../../shared/schemas/reference';
import { listAnswer, writeAnswer, messageAnswerSchema } from '../../shared/schemas/answers';
import {
  bankAccountInputSchema,
  bankAccountSchema,
  bankReconciliationSchema,
  bankTransactionQuerySchema,
  bankTransactionSchema,
  candidatesQuerySchema,
  ignoreInputSchema,
  matchCandidateSchema,
  matchInputSchema,
  statementImportSchema,
  statementUploadSchema,
} from '../../shared/schemas/bank';
import { createBankAccount, deleteBankAccount, getBankAccount, listBankAccounts, updateBankAccount } from '../services/bank-accounts';
import { importStatement } from '../services/bank-import';
import { bankReconciliation } from '../services/bank-reconciliation';
import {
  confirmSureMatches,
  ignoreBankTransaction,
  listBankTransactions,
  matchBankTransaction,
  matchCandidates,
  unignoreBankTransaction,
} from '../services/bank-matching';
import { plural } from '../../shared/french';

/** A statement of 10 MB, in base64 inside JSON. */
const STATEMENT_BODY_LIMIT = 15 * 1024 * 1024;

export const bankAccountsRouter = router({
  list: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/bank-accounts', summary: 'Comptes bancaires' } })
    .output(listAnswer(bankAccountSchema))
    .query(({ ctx }) => listBankAccounts(ctx.db, ctx.organizationId)),
  get: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/bank-accounts/{id}', summary: 'Un compte bancaire' } })
    .input(z.object({ id: idSchema }))
    .output(bankAccountSchema)
    .query(({ ctx, input }) => getBankAccount(ctx.db, ctx.organizationId, input.id)),
  reconciliation: readProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/bank-accounts/{id}/reconciliation',
        summary: 'État de rapprochement : solde du relevé, solde comptable et leur écart expliqué ligne à ligne',
      },
    })
    .input(z.object({ id: idSchema }))
    .output(bankReconciliationSchema)
    .query(({ ctx, input }) => bankReconciliation(ctx.db, ctx.organizationId, input.id)),
  create: manageProcedure
    .meta({ rest: { method: 'POST', path: '/api/bank-accounts', status: 201, summary: 'Ajoute un compte bancaire (IBAN vérifié)' } })
    .input(bankAccountInputSchema)
    .output(writeAnswer(bankAccountSchema))
    .mutation(async ({ ctx, input }) => ({
      messages: 'Compte bancaire ajouté',
      data: await createBankAccount(ctx.db, ctx.organizationId, input),
    })),
  update: manageProcedure
    .meta({ rest: { method: 'PUT', path: '/api/bank-accounts/{id}', summary: 'Modifie un compte bancaire' } })
    .input(bankAccountInputSchema.extend({ id: idSchema }))
    .output(writeAnswer(bankAccountSchema))
    .mutation(async ({ ctx, input: { id, ...input } }) => ({
      messages: 'Mise à jour avec succès',
      data: await updateBankAccount(ctx.db, ctx.organizationId, id, input),
    })),
  delete: manageProcedure
    .meta({
      rest: { method: 'DELETE', path: '/api/bank-accounts/{id}', summary: 'Supprime un compte bancaire et ses opérations non rapprochées' },
    })
    .input(z.object({ id: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await deleteBankAccount(ctx.db, ctx.organizationId, input.id);
      return { messages: 'Compte bancaire supprimé' };
    }),
  import: writeProcedure
    .meta({
      heavy: true,
      rest: {
        method: 'POST',
        path: '/api/bank-accounts/{id}/import',
        status: 201,
        bodyLimit: STATEMENT_BODY_LIMIT,
        nothingCreated: {
          when: (answer) => (answer as { data?: { csv_mapping_required?: boolean } }).data?.csv_mapping_required === true,
          description:
            'Un CSV envoyé avec `csv_preview: true` sur un compte sans colonnes confirmées : rien n’est importé ; `csv_preview` donne les colonnes devinées et les premières lignes lues avec elles, à renvoyer confirmées dans `csv_mapping`',
        },
        summary:
          'Importe un relevé (camt.053/052/054, OFX, QIF ou CSV) : chaque opération une seule fois, avec ses suggestions de rapprochement',
      },
    })
    .input(statementUploadSchema.extend({ id: idSchema }))
    .output(writeAnswer(statementImportSchema))
    .mutation(async ({ ctx, input: { id, ...upload } }) => {
      const data = await importStatement(ctx.db, ctx.organizationId, id, upload);
      if (data.csv_mapping_required) return { messages: 'Confirmez les colonnes du relevé : rien n’est importé avant', data };
      const messages = `${plural(data.imported, 'opération importée', 'opérations importées')}${data.duplicates ? `, ${plural(data.duplicates, 'déjà présente', 'déjà présentes')}` : ''}`;
      return { messages, data };
    }),
});

export const bankTransactionsRouter = router({
  list: readProcedure
    .meta({
      rest: { method: 'GET', path: '/api/bank-transactions', summary: 'Opérations bancaires, avec leurs suggestions de rapprochement' },
    })
    .input(bankTransactionQuerySchema.optional())
    .output(listAnswer(bankTransactionSchema))
    .query(({ ctx, input }) => listBankTransactions(ctx.db, ctx.organizationId, bankTransactionQuerySchema.parse(input ?? {}))),
  candidates: readProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/bank-transactions/{id}/candidates',
        summary: 'Factures ouvertes (crédit) ou dépenses à payer (débit) qu’une opération peut payer, à choisir à la main',
      },
    })
    .input(candidatesQuerySchema.extend({ id: idSchema }))
    .output(z.object({ data: z.array(matchCandidateSchema) }))
    .query(async ({ ctx, input }) => ({ data: await matchCandidates(ctx.db, ctx.organizationId, input.id, input.q) })),
  match: writeProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/bank-transactions/{id}/match',
        summary: 'Rapproche une opération : enregistre les paiements des factures ou des dépenses choisies',
      },
    })
    .input(matchInputSchema.extend({ id: idSchema }))
    .output(writeAnswer(bankTransactionSchema))
    .mutation(async ({ ctx, input }) => ({
      messages: 'Opération rapprochée : paiement enregistré',
      data: await matchBankTransaction(ctx.db, ctx.organizationId, input.id, input.matches, ctx.userId),
    })),
  ignore: writeProcedure
    .meta({ rest: { method: 'POST', path: '/api/bank-transactions/{id}/ignore', summary: 'Ignore une opération (avec la raison)' } })
    .input(ignoreInputSchema.extend({ id: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await ignoreBankTransaction(ctx.db, ctx.organizationId, input.id, input.reason);
      return { messages: 'Opération ignorée' };
    }),
  unignore: writeProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/bank-transactions/{id}/unignore',
        summary: 'Annule « Ignorer » : la ligne est de nouveau à rapprocher',
      },
    })
    .input(z.object({ id: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await unignoreBankTransaction(ctx.db, ctx.organizationId, input.id);
      return { messages: 'Opération de nouveau à rapprocher' };
    }),
  confirmSure: writeProcedure
    .meta({
      rest: { method: 'POST', path: '/api/bank-transactions/confirm-sure', summary: '« Tout valider » : confirme chaque suggestion sûre' },
    })
    .input(z.object({ account_id: idSchema.optional() }).optional())
    .output(writeAnswer(z.object({ confirmed: z.number().int(), skipped: z.number().int() })))
    .mutation(async ({ ctx, input }) => {
      const data = await confirmSureMatches(ctx.db, ctx.organizationId, input?.account_id, ctx.userId);
      return { messages: `${plural(data.confirmed, 'opération rapprochée', 'opérations rapprochées')}`, data };
    }),
});
