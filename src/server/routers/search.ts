import { readProcedure, router } from '../trpc';
import { searchQuerySchema, searchResultsSchema } from '../../shared/schemas/search';
import { searchEntries } from '../db/queries/search';

export const searchRouter = router({
  /** The shell's global search: customers, items and documents by name, number, e-mail, SIREN, code. */
  query: readProcedure
    .meta({ kept: true, rest: { method: 'GET', path: '/api/search', summary: 'Recherche globale (clients, articles, documents)' } })
    .input(searchQuerySchema)
    .output(searchResultsSchema)
    .query(async ({ ctx, input }) => {
      const data = await searchEntries(ctx.db, { organizationId: ctx.organizationId, text: input.q, limit: 20 });
      return { total: data.length, data };
    }),
});
