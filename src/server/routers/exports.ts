import { manageProcedure, readProcedure, router } from '../trpc';
import { accountingSettingsSchema, fecQuerySchema } from '../../shared/schemas/accounting';
import { textFileSchema, writeAnswer } from '../../shared/schemas/answers';
import { exportFec } from '../services/fec';
import { getAccountingSettings, saveAccountingSettings } from '../services/settings';

/** Exports for the accountant, and the accounts they book to (Paramètres → Comptabilité). */
export const exportsRouter = router({
  /** The FEC of a year: the REST door sends it as the file itself (ISO-8859-15 text), the tRPC door as `{ filename, content }`. */
  fec: readProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/exports/fec',
        file: { contentType: 'text/plain', charset: 'iso-8859-15' },
        summary: 'Fichier des écritures comptables (FEC) d’une année',
      },
    })
    .input(fecQuerySchema)
    .output(textFileSchema)
    .query(({ ctx, input }) => exportFec(ctx.db, ctx.organizationId, input.year)),
  accounts: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/exports/accounts', summary: 'Comptes du FEC (clients, ventes, TVA, banque)' } })
    .output(accountingSettingsSchema)
    .query(({ ctx }) => getAccountingSettings(ctx.db, ctx.organizationId)),
  saveAccounts: manageProcedure
    .meta({ rest: { method: 'PUT', path: '/api/exports/accounts', summary: 'Enregistre les comptes du FEC' } })
    .input(accountingSettingsSchema)
    .output(writeAnswer(accountingSettingsSchema))
    .mutation(async ({ ctx, input }) => ({
      messages: 'Mise à jour avec succès',
      data: await saveAccountingSettings(ctx.db, ctx.organizationId, input),
    })),
});
