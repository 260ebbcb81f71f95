import { z } from 'zod';
import { protectedProcedure, router } from '../trpc';
import { idSchema } from '../../shared/schemas/reference';
import { listAnswer, writeAnswer } from '../../shared/schemas/answers';
import { messageAnswerSchema } from '../../shared/schemas/auth';
import {
  bankAccountInputSchema,
  bankAccountSchema,
  bankTransactionQuerySchema,
  bankTransactionSchema,
  ignoreInputSchema,
  matchInputSchema,
  statementImportSchema,
  statementUploadSchema,
} from '../../shared/schemas/bank';
import { createBankAccount, deleteBankAccount, getBankAccount, listBankAccounts, updateBankAccount } from '../services/bank-accounts';
import { importStatement } from '../services/bank-import';
import { confirmSureMatches, ignoreBankTransaction, listBankTransactions, matchBankTransaction } from '../services/bank-matching';
import { plural } from '../../shared/french';

/** A statement of 10 MB, in base64 inside JSON. */
const STATEMENT_BODY_LIMIT = 15 * 1024 * 1024;

export const bankAccountsRouter = router({
  list: protectedProcedure
    .meta({ rest: { method: 'GET', path: '/api/bank-accounts', summary: 'Comptes bancaires' } })
    .output(listAnswer(bankAccountSchema))
    .query(({ ctx }) => listBankAccounts(ctx.db, ctx.organizationId)),
  get: protectedProcedure
    .meta({ rest: { method: 'GET', path: '/api/bank-accounts/{id}', summary: 'Un compte bancaire' } })
    .input(z.object({ id: idSchema }))
    .output(bankAccountSchema)
    .query(({ ctx, input }) => getBankAccount(ctx.db, ctx.organizationId, input.id)),
  create: protectedProcedure
    .meta({ rest: { method: 'POST', path: '/api/bank-accounts', status: 201, summary: 'Ajoute un compte bancaire (IBAN vérifié)' } })
    .input(bankAccountInputSchema)
    .output(writeAnswer(bankAccountSchema))
    .mutation(async ({ ctx, input }) => ({
      messages: 'Compte bancaire ajouté',
      data: await createBankAccount(ctx.db, ctx.organizationId, input),
    })),
  update: protectedProcedure
    .meta({ rest: { method: 'PUT', path: '/api/bank-accounts/{id}', summary: 'Modifie un compte bancaire' } })
    .input(bankAccountInputSchema.extend({ id: idSchema }))
    .output(writeAnswer(bankAccountSchema))
    .mutation(async ({ ctx, input: { id, ...input } }) => ({
      messages: 'Mise à jour avec succès',
      data: await updateBankAccount(ctx.db, ctx.organizationId, id, input),
    })),
  delete: protectedProcedure
    .meta({
      rest: { method: 'DELETE', path: '/api/bank-accounts/{id}', summary: 'Supprime un compte bancaire et ses opérations non rapprochées' },
    })
    .input(z.object({ id: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await deleteBankAccount(ctx.db, ctx.organizationId, input.id);
      return { messages: 'Compte bancaire supprimé' };
    }),
  import: protectedProcedure
    .meta({
      heavy: true,
      rest: {
        method: 'POST',
        path: '/api/bank-accounts/{id}/import',
        status: 201,
        bodyLimit: STATEMENT_BODY_LIMIT,
        summary:
          'Importe un relevé (camt.053/052/054, OFX, QIF ou CSV) : chaque opération une seule fois, avec ses suggestions de rapprochement',
      },
    })
    .input(statementUploadSchema.extend({ id: idSchema }))
    .output(writeAnswer(statementImportSchema))
    .mutation(async ({ ctx, input: { id, ...upload } }) => {
      const data = await importStatement(ctx.db, ctx.organizationId, id, upload);
      const messages = `${plural(data.imported, 'opération importée', 'opérations importées')}${data.duplicates ? `, ${plural(data.duplicates, 'déjà présente', 'déjà présentes')}` : ''}`;
      return { messages, data };
    }),
});

export const bankTransactionsRouter = router({
  list: protectedProcedure
    .meta({
      rest: { method: 'GET', path: '/api/bank-transactions', summary: 'Opérations bancaires, avec leurs suggestions de rapprochement' },
    })
    .input(bankTransactionQuerySchema.optional())
    .output(listAnswer(bankTransactionSchema))
    .query(({ ctx, input }) => listBankTransactions(ctx.db, ctx.organizationId, bankTransactionQuerySchema.parse(input ?? {}))),
  match: protectedProcedure
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
  ignore: protectedProcedure
    .meta({ rest: { method: 'POST', path: '/api/bank-transactions/{id}/ignore', summary: 'Ignore une opération (avec la raison)' } })
    .input(ignoreInputSchema.extend({ id: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await ignoreBankTransaction(ctx.db, ctx.organizationId, input.id, input.reason);
      return { messages: 'Opération ignorée' };
    }),
  confirmSure: protectedProcedure
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
