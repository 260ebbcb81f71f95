import { readProcedure, router } from '../trpc';
import {
  auditPageSchema,
  auditQuerySchema,
  auditVerifySchema,
  closingListQuerySchema,
  closingNumberSchema,
  closingPageSchema,
  exportedClosingSchema,
} from '../../shared/schemas/audit';
import { getAuditPage, verifyAudit } from '../services/audit';
import { exportClosing, getClosingPage } from '../services/audit-closings';

export const auditRouter = router({
  /** The organisation's log, newest first (highest sequence number first). */
  list: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/audit', summary: 'Journal chaîné des émissions, paiements et changements' } })
    .input(auditQuerySchema)
    .output(auditPageSchema)
    .query(({ ctx, input }) => getAuditPage(ctx.db, ctx.organizationId, input)),
  verify: readProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/audit/verify',
        summary: 'Vérifie les empreintes, le chaînage, les clôtures et la complétude du journal, et les PDF conservés',
      },
    })
    .output(auditVerifySchema)
    .query(({ ctx }) => verifyAudit(ctx.db, ctx.organizationId, ctx.env.dataDir)),
  /** The signed closings (daily, monthly, yearly), newest first. */
  closings: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/audit/closings', summary: 'Clôtures signées du journal (jour, mois, année)' } })
    .input(closingListQuerySchema)
    .output(closingPageSchema)
    .query(({ ctx, input }) => getClosingPage(ctx.db, ctx.organizationId, input)),
  exportClosing: readProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/audit/closings/{number}',
        summary: 'Une clôture en fichier signé, à garder hors du serveur (npm run audit:verify -- --closing fichier.json)',
      },
    })
    .input(closingNumberSchema)
    .output(exportedClosingSchema)
    .query(({ ctx, input }) => exportClosing(ctx.db, ctx.organizationId, input.number)),
});
