import { protectedProcedure, router } from '../trpc';
import { AppError, validationMessages } from '../errors';
import { templateIssueMessages } from '../../shared/template-labels';
import { settingsQuerySchema, settingsReadSchema, settingsWriteSchema, settingsWrittenSchema } from '../../shared/schemas/settings-io';
import { getAppSettings, getDocumentTemplate, saveAppSettings, saveDocumentTemplate } from '../services/settings';

interface IssueLike {
  path: PropertyKey[];
  message: string;
}

/**
 * The body sits under `data` in the input, but the user wrote the body: a 400 names its fields as if it were the
 * whole input. The generic field names of errors.ts cannot tell a margin's `top` from a padding's, so a template's
 * 400 names the whole path instead ('Marges › première page › haut : 10 au plus'). Wraps the input parser, so it
 * sees its error.
 */
const settingsWriteProcedure = protectedProcedure.use(async ({ next, getRawInput }) => {
  const result = await next();
  const cause = result.ok ? undefined : (result.error.cause as { issues?: IssueLike[] } | undefined);
  if (result.ok || result.error.code !== 'BAD_REQUEST' || !Array.isArray(cause?.issues)) return result;
  const raw = await getRawInput();
  const template = typeof raw === 'object' && raw !== null && 'key' in raw && raw.key === 'document';
  const data = cause.issues.filter((issue) => issue.path[0] === 'data');
  const others = cause.issues.filter((issue) => issue.path[0] !== 'data').map((issue) => issue.message);
  const messages = template
    ? [...others, ...templateIssueMessages(data, ['data'])]
    : [...others, ...validationMessages(data.map((issue) => ({ ...issue, path: issue.path.slice(1) })))];
  throw new AppError('BAD_REQUEST', messages.length === 1 ? (messages[0] ?? '') : messages);
});

export const settingsRouter = router({
  /** SPEC §7: without key, the settings object; with `key`, `{ data }` (the preview reads the template so). */
  get: protectedProcedure
    .meta({ rest: { method: 'GET', path: '/api/settings', summary: 'Paramètres de l’application, ou avec `key` l’objet nommé' } })
    .input(settingsQuerySchema)
    .output(settingsReadSchema)
    .query(async ({ ctx, input }) => {
      if (input?.key === 'document') return { data: await getDocumentTemplate(ctx.db, ctx.organizationId) };
      return getAppSettings(ctx.db, ctx.organizationId);
    }),
  /**
   * The write that mirrors `get`: the whole settings object, or with `key` the whole object that key names (SPEC §7
   * "PUT settings, whole settings object"). REST: `PUT /api/settings[?key=document]` with that object as body.
   */
  update: settingsWriteProcedure
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
          ? await saveDocumentTemplate(ctx.db, ctx.organizationId, input.data)
          : await saveAppSettings(ctx.db, ctx.organizationId, input.data),
    })),
});
