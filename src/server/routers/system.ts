import { z } from 'zod';
import { publicProcedure, router } from '../trpc';
import { checkDatabase } from '../services/health';
import { VERSION_DOOR } from '../../shared/rest-doors';

export const systemRouter = router({
  /** Polled by the SPA: a new build_id raises the "Mise à jour logicielle" notice. */
  version: publicProcedure
    .meta({ rest: { ...VERSION_DOOR, summary: 'Version et build du serveur' } })
    .output(z.object({ version: z.string(), build_id: z.string() }))
    .query(({ ctx }) => ({ version: ctx.buildInfo.version, build_id: ctx.buildInfo.buildId() })),
  /** For load balancers and uptime checks: the process answers and its database does too. */
  health: publicProcedure
    .meta({ rest: { method: 'GET', path: '/api/health', summary: 'État du serveur et de sa base de données' } })
    .output(z.object({ status: z.literal('ok'), database: z.literal('ok') }))
    .query(async ({ ctx }) => {
      await checkDatabase(ctx.db);
      return { status: 'ok' as const, database: 'ok' as const };
    }),
});
