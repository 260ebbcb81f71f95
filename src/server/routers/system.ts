import { z } from 'zod';
import { publicProcedure, router } from '../trpc';

export const systemRouter = router({
  /** Polled by the SPA: a new build_id raises SPEC's "Mise à jour logicielle" notice. */
  version: publicProcedure
    .meta({ rest: { method: 'GET', path: '/api/version', summary: 'Version et build du serveur' } })
    .output(z.object({ version: z.string(), build_id: z.string() }))
    .query(({ ctx }) => ({ version: ctx.buildInfo.version, build_id: ctx.buildInfo.buildId() })),
});
