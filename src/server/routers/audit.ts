import { protectedProcedure, router } from '../trpc';
import { auditPageSchema, auditQuerySchema, auditVerifySchema } from '../../shared/schemas/audit';
import { getAuditPage, verifyAudit } from '../services/audit';

export const auditRouter = router({
  /** The organisation's log, newest first (highest sequence number first). */
  list: protectedProcedure
    .meta({ rest: { method: 'GET', path: '/api/audit', summary: 'Journal chaîné des émissions, paiements et changements' } })
    .input(auditQuerySchema)
    .output(auditPageSchema)
    .query(({ ctx, input }) => getAuditPage(ctx.db, ctx.organizationId, input)),
  verify: protectedProcedure
    .meta({
      rest: { method: 'GET', path: '/api/audit/verify', summary: 'Vérifie les empreintes et le chaînage du journal, et les PDF conservés' },
    })
    .output(auditVerifySchema)
    .query(({ ctx }) => verifyAudit(ctx.db, ctx.organizationId, ctx.env.dataDir)),
});
