import { z } from 'zod';
import { publicProcedure, router } from '../trpc';
import { getSharedDocument } from '../services/share';

export const shareRouter = router({
  /** The public page of one issued document, by its uuid (no session needed). */
  get: publicProcedure
    .input(
      z.object({
        uuid: z.string({ error: 'Lien invalide' }).max(64, 'Lien invalide'),
        print: z.union([z.boolean(), z.enum(['1', 'true'])]).optional(),
      }),
    )
    // The PDF renderer's own visit (print) is not a customer's view.
    .query(({ ctx, input }) => getSharedDocument(ctx.db, input.uuid.toLowerCase(), { recordView: !input.print })),
});
