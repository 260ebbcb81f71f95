import { z } from 'zod';
import { protectedProcedure, router } from '../trpc';
import { einvoicingCheckSchema, einvoicingSettingsInputSchema, einvoicingSettingsSchema } from '../../shared/schemas/einvoicing-settings';
import { getEinvoicingSettings, saveEinvoicingSettings } from '../services/einvoicing-settings';
import { checkEinvoicingConnection } from '../services/einvoicing-check';
import { writeAnswer } from '../../shared/schemas/answers';
import { inboxSchema, syncReportSchema } from '../../shared/schemas/einvoice-inbox';
import { getInbox, syncNow } from '../services/einvoice-inbox';

/** Paramètres → Facturation électronique: the connection to the Plateforme Agréée. Secrets never leave the server. */
export const einvoicingRouter = router({
  settings: protectedProcedure
    .meta({ rest: { method: 'GET', path: '/api/settings/einvoicing', summary: 'Connexion à la plateforme agréée (sans les secrets)' } })
    .output(einvoicingSettingsSchema)
    .query(({ ctx }) => getEinvoicingSettings(ctx.db, ctx.organizationId)),
  saveSettings: protectedProcedure
    .meta({ rest: { method: 'PUT', path: '/api/settings/einvoicing', summary: 'Enregistre la connexion à la plateforme agréée' } })
    .input(einvoicingSettingsInputSchema)
    .output(z.object({ messages: z.string(), data: einvoicingSettingsSchema }))
    .mutation(async ({ ctx, input }) => ({
      messages: 'Mise à jour avec succès',
      data: await saveEinvoicingSettings(ctx, ctx.organizationId, input),
    })),
  check: protectedProcedure
    .meta({
      heavy: true,
      rest: { method: 'POST', path: '/api/einvoicing/check', summary: 'Teste la connexion au Flow Service et au Directory Service' },
    })
    .output(einvoicingCheckSchema)
    .mutation(({ ctx }) => checkEinvoicingConnection(ctx, ctx.organizationId)),
  sync: protectedProcedure
    .meta({
      heavy: true,
      rest: {
        method: 'POST',
        path: '/api/einvoicing/sync',
        summary: 'Reçoit maintenant les flux de la plateforme agréée : factures fournisseurs et statuts des factures émises',
      },
    })
    .output(writeAnswer(syncReportSchema))
    .mutation(({ ctx }) => syncNow(ctx, ctx.organizationId)),
  inbox: protectedProcedure
    .meta({
      rest: { method: 'GET', path: '/api/einvoicing/inbox', summary: 'Les flux reçus de la plateforme agréée et ce qu’il en est advenu' },
    })
    .output(inboxSchema)
    .query(({ ctx }) => getInbox(ctx.db, ctx.organizationId)),
});
