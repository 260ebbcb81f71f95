import { protectedProcedure, router } from '../trpc';
import { listTaxes, listUnits } from '../db/queries/reference';

export const taxesRouter = router({
  list: protectedProcedure.query(async ({ ctx }) => {
    const data = await listTaxes(ctx.db, { organizationId: ctx.organizationId });
    return { total: data.length, data };
  }),
});

export const unitsRouter = router({
  list: protectedProcedure.query(async ({ ctx }) => {
    const data = await listUnits(ctx.db, { organizationId: ctx.organizationId });
    return { total: data.length, data };
  }),
});
