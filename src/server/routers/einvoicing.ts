import { z } from 'zod';
import { manageProcedure, readProcedure, writeProcedure, router } from '../trpc';
import {
  einvoicingCheckSchema,
  einvoicingSettingsInputSchema,
  einvoicingSettingsSchema,
  ownDirectorySchema,
} from '../../shared/schemas/einvoicing-settings';
import { getOwnDirectory, refreshOwnDirectory, refreshOwnDirectoryQuietly } from '../services/einvoice-own-directory';
import { getEinvoicingSettings, saveEinvoicingSettings } from '../services/einvoicing-settings';
import { checkEinvoicingConnection } from '../services/einvoicing-check';
import { writeAnswer } from '../../shared/schemas/answers';
import { inboxSchema, syncReportSchema } from '../../shared/schemas/einvoice-inbox';
import { getInbox, syncNow } from '../services/einvoice-inbox';
import { directoryListingSchema, directorySirenSchema } from '../../shared/schemas/einvoice-directory';
import { directoryListing } from '../services/einvoice-directory';
import { overviewSchema } from '../../shared/schemas/einvoicing-overview';
import { einvoicingOverview } from '../services/einvoicing-overview';

/** Paramètres → Facturation électronique: the connection to the Plateforme Agréée. Secrets never leave the server. */
export const einvoicingRouter = router({
  settings: manageProcedure
    .meta({ rest: { method: 'GET', path: '/api/settings/einvoicing', summary: 'Connexion à la plateforme agréée (sans les secrets)' } })
    .output(einvoicingSettingsSchema)
    .query(({ ctx }) => getEinvoicingSettings(ctx.db, ctx.organizationId)),
  saveSettings: manageProcedure
    .meta({ rest: { method: 'PUT', path: '/api/settings/einvoicing', summary: 'Enregistre la connexion à la plateforme agréée' } })
    .input(einvoicingSettingsInputSchema)
    .output(z.object({ messages: z.string(), data: einvoicingSettingsSchema }))
    .mutation(async ({ ctx, input }) => {
      const data = await saveEinvoicingSettings(ctx, ctx.organizationId, input);
      await refreshOwnDirectoryQuietly(ctx, ctx.organizationId);
      return { messages: 'Mise à jour avec succès', data };
    }),
  check: manageProcedure
    .meta({
      upstream: true,
      heavy: true,
      rest: { method: 'POST', path: '/api/einvoicing/check', summary: 'Teste la connexion au Flow Service et au Directory Service' },
    })
    .output(einvoicingCheckSchema)
    .mutation(async ({ ctx }) => {
      const answer = await checkEinvoicingConnection(ctx, ctx.organizationId);
      await refreshOwnDirectoryQuietly(ctx, ctx.organizationId);
      return answer;
    }),
  ownDirectory: readProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/settings/einvoicing/directory',
        summary: 'Votre propre inscription à l’annuaire : l’adresse électronique de vos factures (BT-34) et votre code de routage',
      },
    })
    .output(ownDirectorySchema)
    .query(({ ctx }) => getOwnDirectory(ctx.db, ctx.organizationId)),
  checkOwnDirectory: manageProcedure
    .meta({
      upstream: true,
      rest: {
        method: 'POST',
        path: '/api/settings/einvoicing/directory',
        summary: 'Cherche maintenant votre SIREN dans l’annuaire de la plateforme agréée et garde votre adresse électronique',
      },
    })
    .output(z.object({ messages: z.string(), data: ownDirectorySchema }))
    .mutation(async ({ ctx }) => {
      const data = await refreshOwnDirectory(ctx, ctx.organizationId);
      return {
        messages: data.status === 'listed' ? `Inscrite à l’annuaire : adresse ${data.electronic_address}` : data.warning,
        data,
      };
    }),
  sync: writeProcedure
    .meta({
      upstream: true,
      heavy: true,
      rest: {
        method: 'POST',
        path: '/api/einvoicing/sync',
        summary: 'Reçoit maintenant les flux de la plateforme agréée : factures fournisseurs et statuts des factures émises',
      },
    })
    .output(writeAnswer(syncReportSchema))
    .mutation(({ ctx }) => syncNow(ctx, ctx.organizationId)),
  inbox: readProcedure
    .meta({
      rest: { method: 'GET', path: '/api/einvoicing/inbox', summary: 'Les flux reçus de la plateforme agréée et ce qu’il en est advenu' },
    })
    .output(inboxSchema)
    .query(({ ctx }) => getInbox(ctx.db, ctx.organizationId)),
  directory: readProcedure
    .meta({
      upstream: true,
      rest: {
        method: 'GET',
        path: '/api/directory/{siren}',
        summary: 'Annuaire de la plateforme agréée : le nom, les adresses électroniques et codes de routage d’un SIREN',
      },
    })
    .input(z.object({ siren: directorySirenSchema }))
    .output(directoryListingSchema)
    .query(({ ctx, input }) => directoryListing(ctx, ctx.organizationId, input.siren)),
  overview: readProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/einvoicing/overview',
        summary: 'Facturation électronique d’un coup d’œil : envoyé, accepté, rejeté, reçu, déclaré, en attente, à traiter',
      },
    })
    .output(overviewSchema)
    .query(({ ctx }) => einvoicingOverview(ctx.db, ctx.organizationId)),
});
