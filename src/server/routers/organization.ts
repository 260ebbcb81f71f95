import { manageProcedure, readProcedure, router } from '../trpc';
import {
  logoUploadSchema,
  logoWriteSchema,
  organizationProfileSchema,
  organizationSettingsSchema,
  organizationWriteSchema,
} from '../../shared/schemas/organization';
import { messageAnswerSchema } from '../../shared/schemas/answers';
import { getOrganizationProfile, removeLogo, saveLogo, saveOrganizationProfile } from '../services/organization';

/** A logo is at most 1 MB, as a base64 data URL a third larger. */
const LOGO_BODY_LIMIT = 2 * 1024 * 1024;

export const organizationRouter = router({
  get: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/organization', summary: 'Profil de l’entreprise' } })
    .output(organizationProfileSchema)
    .query(({ ctx }) => getOrganizationProfile(ctx.db, ctx.organizationId)),
  update: manageProcedure
    .meta({ rest: { method: 'PUT', path: '/api/organization', summary: 'Modifie le profil de l’entreprise' } })
    .input(organizationSettingsSchema)
    .output(organizationWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Mise à jour avec succès',
      data: await saveOrganizationProfile(ctx.db, ctx.organizationId, input),
    })),
  uploadLogo: manageProcedure
    .meta({ rest: { method: 'POST', path: '/api/organization/logo', bodyLimit: LOGO_BODY_LIMIT, summary: 'Enregistre le logo' } })
    .input(logoUploadSchema)
    .output(logoWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Logo enregistré',
      data: { logo_url: await saveLogo(ctx.db, ctx.env.dataDir, ctx.organizationId, input.data_url) },
    })),
  deleteLogo: manageProcedure
    .meta({ rest: { method: 'DELETE', path: '/api/organization/logo', summary: 'Supprime le logo' } })
    .output(messageAnswerSchema)
    .mutation(async ({ ctx }) => {
      await removeLogo(ctx.db, ctx.env.dataDir, ctx.organizationId);
      return { messages: 'Logo supprimé' };
    }),
});
