import { z } from 'zod';
import { manageProcedure, readProcedure, writeProcedure, router } from '../trpc';
import { idSchema } from '../../shared/schemas/reference';
import { messageAnswerSchema } from '../../shared/schemas/answers';
import { tagInputSchema, tagListQuerySchema, tagListSchema, tagWriteSchema } from '../../shared/schemas/tag';
import { listTags } from '../db/queries/tags';
import { createTag, editTag, removeTag } from '../services/tags';

export const tagsRouter = router({
  /** `scope` keeps only the tags meant for one kind of record (what a form's picker offers). */
  list: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/tags', summary: 'Étiquettes, avec leur usage' } })
    .input(tagListQuerySchema.optional())
    .output(tagListSchema)
    .query(async ({ ctx, input }) => {
      const data = await listTags(ctx.db, { organizationId: ctx.organizationId, scope: input?.scope });
      return { total: data.length, data };
    }),
  create: writeProcedure
    .meta({ rest: { method: 'POST', path: '/api/tags', status: 201, summary: 'Crée une étiquette' } })
    .input(tagInputSchema)
    .output(tagWriteSchema)
    .mutation(async ({ ctx, input }) => ({ messages: 'Ajouté avec succès', data: await createTag(ctx.db, ctx.organizationId, input) })),
  update: writeProcedure
    .meta({ rest: { method: 'PUT', path: '/api/tags/{id}', bodyKey: 'data', summary: 'Modifie une étiquette' } })
    .input(z.object({ id: idSchema, data: tagInputSchema }))
    .output(tagWriteSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: 'Mis à jour avec succès',
      data: await editTag(ctx.db, ctx.organizationId, input.id, input.data),
    })),
  delete: manageProcedure
    .meta({ rest: { method: 'DELETE', path: '/api/tags/{id}', summary: 'Supprime une étiquette' } })
    .input(z.object({ id: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await removeTag(ctx.db, ctx.organizationId, input.id);
      return { messages: 'Supprimé avec succès' };
    }),
});
