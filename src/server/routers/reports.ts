import { readProcedure, router } from '../trpc';
import {
  marginReportSchema,
  rankingReportSchema,
  receiptsBookSchema,
  receiptsQuerySchema,
  receivablesReportSchema,
  reportPeriodSchema,
  turnoverQuerySchema,
  turnoverReportSchema,
  urssafQuerySchema,
  urssafReportSchema,
  vatQuerySchema,
  vatReportSchema,
} from '../../shared/schemas/reports';
import {
  customersReport,
  itemsReport,
  marginReport,
  receiptsBook,
  receivablesReport,
  tagsReport,
  turnoverReport,
  urssafReport,
} from '../services/reports';
import { vatOperationsPage } from '../services/vat-operations';
import { vatReportFromLedger } from '../services/vat-report';
import { vatOperationsPageSchema, vatOperationsQuerySchema } from '../../shared/schemas/vat-operations';

/** Statistiques: one procedure per figure, each also a GET under /api/reports. */
export const reportsRouter = router({
  turnover: readProcedure
    .meta({
      kept: true,
      rest: { method: 'GET', path: '/api/reports/turnover', summary: 'Chiffre d’affaires par mois, trimestre ou année' },
    })
    .input(turnoverQuerySchema)
    .output(turnoverReportSchema)
    .query(({ ctx, input }) => turnoverReport(ctx.db, ctx.organizationId, input)),
  customers: readProcedure
    .meta({
      kept: true,
      rest: { method: 'GET', path: '/api/reports/customers', summary: 'Chiffre d’affaires par client : les dix premiers et le reste' },
    })
    .input(reportPeriodSchema)
    .output(rankingReportSchema)
    .query(({ ctx, input }) => customersReport(ctx.db, ctx.organizationId, input)),
  items: readProcedure
    .meta({
      kept: true,
      rest: { method: 'GET', path: '/api/reports/items', summary: 'Chiffre d’affaires par article : les dix premiers et le reste' },
    })
    .input(reportPeriodSchema)
    .output(rankingReportSchema)
    .query(({ ctx, input }) => itemsReport(ctx.db, ctx.organizationId, input)),
  tags: readProcedure
    .meta({
      kept: true,
      rest: {
        method: 'GET',
        path: '/api/reports/tags',
        summary: 'Chiffre d’affaires par étiquette client : les dix premières et le reste',
      },
    })
    .input(reportPeriodSchema)
    .output(rankingReportSchema)
    .query(({ ctx, input }) => tagsReport(ctx.db, ctx.organizationId, input)),
  vat: readProcedure
    .meta({
      kept: true,
      rest: { method: 'GET', path: '/api/reports/vat', summary: 'TVA collectée et déductible par taux, lignes de la CA3' },
    })
    .input(vatQuerySchema)
    .output(vatReportSchema)
    .query(({ ctx, input }) => vatReportFromLedger(ctx.db, ctx.organizationId, input)),
  vatOperations: readProcedure
    .meta({
      kept: true,
      rest: {
        method: 'GET',
        path: '/api/reports/vat/operations',
        summary: 'Opérations d’une ligne de la CA3 sur la période, par pages (curseur « next »)',
      },
    })
    .input(vatOperationsQuerySchema)
    .output(vatOperationsPageSchema)
    .query(({ ctx, input }) => vatOperationsPage(ctx.db, ctx.organizationId, input)),
  receivables: readProcedure
    .meta({
      kept: true,
      rest: { method: 'GET', path: '/api/reports/receivables', summary: 'Créances par ancienneté, DSO et clients en retard' },
    })
    .output(receivablesReportSchema)
    .query(({ ctx }) => receivablesReport(ctx.db, ctx.organizationId)),
  margin: readProcedure
    .meta({
      kept: true,
      rest: { method: 'GET', path: '/api/reports/margin', summary: 'Chiffre d’affaires, dépenses et marge par mois' },
    })
    .input(reportPeriodSchema)
    .output(marginReportSchema)
    .query(({ ctx, input }) => marginReport(ctx.db, ctx.organizationId, input)),
  receipts: readProcedure
    .meta({
      kept: true,
      rest: { method: 'GET', path: '/api/reports/receipts', summary: 'Livre des recettes (franchise en base), par pages de mille' },
    })
    .input(receiptsQuerySchema)
    .output(receiptsBookSchema)
    .query(({ ctx, input }) => receiptsBook(ctx.db, ctx.organizationId, input)),
  urssaf: readProcedure
    .meta({
      kept: true,
      rest: {
        method: 'GET',
        path: '/api/reports/urssaf',
        summary: 'Recettes à déclarer à l’URSSAF (biens / services) et seuils de la franchise',
      },
    })
    .input(urssafQuerySchema)
    .output(urssafReportSchema)
    .query(({ ctx, input }) => urssafReport(ctx.db, ctx.organizationId, input)),
});
