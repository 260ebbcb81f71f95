import { z } from 'zod';
import { protectedProcedure, router } from '../trpc';
import { idSchema } from '../../shared/schemas/reference';
import { tagInputSchema, tagListQuerySchema } from '../../shared/schemas/tag';
import { listTags } from '../db/queries/tags';
import { createTag, editTag, removeTag } from '../services/tags';

export const tagsRouter = router({
  /** `scope` keeps only the tags meant for one kind of record (what a form's picker offers). */
  list: protectedProcedure.input(tagListQuerySchema.optional()).query(async ({ ctx, input }) => {
    const data = await listTags(ctx.db, { organizationId: ctx.organizationId, scope: input?.scope });
    return { total: data.length, data };
  }),
  create: protectedProcedure
    .input(tagInputSchema)
    .mutation(async ({ ctx, input }) => ({ messages: 'Ajouté avec succès', data: await createTag(ctx.db, ctx.organizationId, input) })),
  update: protectedProcedure.input(z.object({ id: idSchema, data: tagInputSchema })).mutation(async ({ ctx, input }) => ({
    messages: 'Mis à jour avec succès',
    data: await editTag(ctx.db, ctx.organizationId, input.id, input.data),
  })),
  delete: protectedProcedure.input(z.object({ id: idSchema })).mutation(async ({ ctx, input }) => {
    await removeTag(ctx.db, ctx.organizationId, input.id);
    return { messages: 'Supprimé avec succès' };
  }),
});
