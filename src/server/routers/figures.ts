import { z } from 'zod';
import { readProcedure, router } from '../trpc';
import { idSchema } from '../../shared/schemas/reference';
import { customerFiguresSchema } from '../../shared/schemas/customer';
import { dashboardSchema } from '../../shared/schemas/figures';
import { customerFigures, dashboardFigures } from '../services/figures';

export const figuresRouter = router({
  dashboard: readProcedure
    .meta({ kept: true, rest: { method: 'GET', path: '/api/dashboard', summary: 'Chiffres de la vue d’ensemble' } })
    .output(dashboardSchema)
    .query(({ ctx }) => dashboardFigures(ctx.db, ctx.organizationId)),
  customer: readProcedure
    .meta({
      kept: true,
      rest: { method: 'GET', path: '/api/customers/{id}/figures', summary: 'Facturé, encaissé et dû d’un client, par devise' },
    })
    .input(z.object({ id: idSchema }))
    .output(customerFiguresSchema)
    .query(async ({ ctx, input }) => {
      const data = await customerFigures(ctx.db, ctx.organizationId, input.id);
      return { total: data.length, data };
    }),
});
