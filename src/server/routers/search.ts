import { z } from 'zod';
import { protectedProcedure, router } from '../trpc';
import { searchEntries } from '../db/queries/search';

export const searchRouter = router({
  /** The shell's global search: customers, items and documents by name, number, e-mail, SIREN, code. */
  query: protectedProcedure
    .input(z.object({ q: z.string().trim().max(200, 'Recherche : 200 caractères au plus') }))
    .query(async ({ ctx, input }) => {
      const data = await searchEntries(ctx.db, { organizationId: ctx.organizationId, text: input.q, limit: 20 });
      return { total: data.length, data };
    }),
});
