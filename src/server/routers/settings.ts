import { z } from 'zod';
import { protectedProcedure, router } from '../trpc';
import { appSettingsSchema } from '../../shared/schemas/settings';
import { getAppSettings, getDocumentTemplate, saveAppSettings } from '../services/settings';

const settingsQuerySchema = z
  .object({ key: z.enum(['document'], { error: 'Clé de paramètres inconnue (attendu : document)' }).optional() })
  .strict()
  .optional();

export const settingsRouter = router({
  /** SPEC §7: without key, the settings object; with `key`, `{ data }` (the preview reads the template so). */
  get: protectedProcedure.input(settingsQuerySchema).query(async ({ ctx, input }) => {
    if (input?.key === 'document') return { data: await getDocumentTemplate(ctx.db, ctx.organizationId) };
    return getAppSettings(ctx.db, ctx.organizationId);
  }),
  update: protectedProcedure
    .input(appSettingsSchema)
    .output(z.object({ messages: z.string(), data: appSettingsSchema }))
    .mutation(async ({ ctx, input }) => ({
      messages: 'Mise à jour avec succès',
      data: await saveAppSettings(ctx.db, ctx.organizationId, input),
    })),
});
