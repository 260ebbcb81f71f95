import { z } from 'zod';
import { protectedProcedure, router } from '../trpc';
import { einvoicingCheckSchema, einvoicingSettingsInputSchema, einvoicingSettingsSchema } from '../../shared/schemas/einvoicing-settings';
import { getEinvoicingSettings, saveEinvoicingSettings } from '../services/einvoicing-settings';
import { checkEinvoicingConnection } from '../services/einvoicing-check';

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
});
