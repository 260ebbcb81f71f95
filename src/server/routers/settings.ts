import { manageProcedure, readProcedure, router } from '../trpc';
import { settingsQuerySchema, settingsReadSchema, settingsWriteSchema, settingsWrittenSchema } from '../../shared/schemas/settings-io';
import { getAppSettings, getDocumentTemplate, saveAppSettings, saveDocumentTemplate } from '../services/settings';

export const settingsRouter = router({
  /** Without key, the settings object; with `key`, `{ data }` (the preview reads the template so). */
  get: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/settings', summary: 'Paramètres de l’application, ou avec `key` l’objet nommé' } })
    .input(settingsQuerySchema)
    .output(settingsReadSchema)
    .query(async ({ ctx, input }) => {
      if (input?.key === 'document') return { data: await getDocumentTemplate(ctx.db, ctx.organizationId) };
      return getAppSettings(ctx.db, ctx.organizationId);
    }),
  /**
   * The write that mirrors `get`: the whole settings object, or with `key` the whole object that key names (a
   * whole settings object, never a patch). REST: `PUT /api/settings[?key=document]` with that object as body.
   */
  update: manageProcedure
    .meta({
      rest: {
        method: 'PUT',
        path: '/api/settings',
        bodyKey: 'data',
        query: true,
        summary: 'Enregistre les paramètres, ou l’objet nommé par `key`',
      },
    })
    .input(settingsWriteSchema)
    .output(settingsWrittenSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Mise à jour avec succès',
      data:
        input.key === 'document'
          ? await saveDocumentTemplate(ctx.db, ctx.organizationId, input.data, ctx.userId)
          : await saveAppSettings(ctx.db, ctx.organizationId, input.data),
    })),
});
