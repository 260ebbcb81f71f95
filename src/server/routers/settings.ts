import { z } from 'zod';
import { protectedProcedure, router } from '../trpc';
import { AppError } from '../errors';
import { templateIssueMessages } from '../../shared/template-labels';
import { appSettingsSchema } from '../../shared/schemas/settings';
import { documentTemplateSchema } from '../../shared/schemas/template';
import { getAppSettings, getDocumentTemplate, saveAppSettings, saveDocumentTemplate } from '../services/settings';

const UNKNOWN_KEY = 'Clé de paramètres inconnue (attendu : document)';
const settingsQuerySchema = z
  .object({ key: z.enum(['document'], { error: UNKNOWN_KEY }).optional() })
  .strict()
  .optional();

/**
 * The generic field names of errors.ts cannot tell a margin's `top` from a padding's: a template's 400 names the
 * whole path instead ('Marges › première page › haut : 10 au plus'). Wraps the input parser, so it sees its error.
 */
const templateProcedure = protectedProcedure.use(async ({ next }) => {
  const result = await next();
  const cause = result.ok ? undefined : (result.error.cause as { issues?: { path: PropertyKey[]; message: string }[] } | undefined);
  if (!result.ok && result.error.code === 'BAD_REQUEST' && Array.isArray(cause?.issues)) {
    const data = cause.issues.filter((issue) => issue.path[0] === 'data');
    const messages = [
      ...cause.issues.filter((issue) => issue.path[0] !== 'data').map((issue) => issue.message),
      ...templateIssueMessages(data, ['data']),
    ];
    throw new AppError('BAD_REQUEST', messages.length === 1 ? messages[0]! : messages);
  }
  return result;
});

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
  /**
   * The write that mirrors `get({ key: 'document' })`: the whole template under that key (SPEC §7 "PUT settings,
   * whole settings object" — here the object the key names). Its REST door is `PUT /api/settings?key=document`
   * with the template as body, the same path and key the preview reads it from.
   */
  updateDocument: templateProcedure
    .input(z.object({ key: z.enum(['document'], { error: UNKNOWN_KEY }), data: documentTemplateSchema }))
    .output(z.object({ messages: z.string(), data: documentTemplateSchema }))
    .mutation(async ({ ctx, input }) => ({
      messages: 'Mise à jour avec succès',
      data: await saveDocumentTemplate(ctx.db, ctx.organizationId, input.data),
    })),
});
