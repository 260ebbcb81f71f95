import { protectedProcedure, router } from '../trpc';
import { logoUploadSchema, organizationSettingsSchema } from '../../shared/schemas/organization';
import { getOrganizationProfile, removeLogo, saveLogo, saveOrganizationProfile } from '../services/organization';

export const organizationRouter = router({
  get: protectedProcedure.query(({ ctx }) => getOrganizationProfile(ctx.db, ctx.organizationId)),
  update: protectedProcedure.input(organizationSettingsSchema).mutation(async ({ ctx, input }) => ({
    messages: 'Mise à jour avec succès',
    data: await saveOrganizationProfile(ctx.db, ctx.organizationId, input),
  })),
  uploadLogo: protectedProcedure.input(logoUploadSchema).mutation(async ({ ctx, input }) => ({
    messages: 'Logo enregistré',
    data: { logo_url: await saveLogo(ctx.db, ctx.env.dataDir, ctx.organizationId, input.data_url) },
  })),
  deleteLogo: protectedProcedure.mutation(async ({ ctx }) => {
    await removeLogo(ctx.db, ctx.env.dataDir, ctx.organizationId);
    return { messages: 'Logo supprimé' };
  }),
});
