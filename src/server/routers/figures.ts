import { z } from 'zod';
import { protectedProcedure, router } from '../trpc';
import { idSchema } from '../../shared/schemas/reference';
import { customerFigures, dashboardFigures } from '../services/figures';

export const figuresRouter = router({
  dashboard: protectedProcedure.query(({ ctx }) => dashboardFigures(ctx.db, ctx.organizationId)),
  customer: protectedProcedure.input(z.object({ id: idSchema })).query(async ({ ctx, input }) => {
    const data = await customerFigures(ctx.db, ctx.organizationId, input.id);
    return { total: data.length, data };
  }),
});
