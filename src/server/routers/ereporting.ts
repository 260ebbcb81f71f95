import { z } from 'zod';
import { readProcedure, writeProcedure, router } from '../trpc';
import { textFileSchema, writeAnswer } from '../../shared/schemas/answers';
import {
  ereportingKindSchema,
  ereportingListQuerySchema,
  ereportingListSchema,
  ereportingPeriodSchema,
  ereportingTransmitSchema,
} from '../../shared/schemas/ereporting';
import { listReports, reportXml, transmitReport } from '../services/ereporting';

/** E-reporting (Flux 10): the periods of the organisation's VAT regime, their report and its transmission. */
export const ereportingRouter = router({
  list: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/ereporting', summary: 'E-reporting : les périodes de l’année, leur montant et leur état' } })
    .input(ereportingListQuerySchema)
    .output(ereportingListSchema)
    .query(({ ctx, input }) => listReports(ctx, ctx.organizationId, input.year)),
  xml: readProcedure
    .meta({
      rest: {
        method: 'GET',
        path: '/api/ereporting/{period}/xml',
        file: { contentType: 'application/xml', charset: 'utf-8' },
        summary: 'Le fichier Flux 10 d’une période',
      },
    })
    .input(z.object({ period: ereportingPeriodSchema, kind: ereportingKindSchema }))
    .output(textFileSchema)
    .query(async ({ ctx, input }) => ({
      filename: `ereporting-${input.period}-${input.kind}.xml`,
      content: await reportXml(ctx, ctx.organizationId, input.period, input.kind),
    })),
  transmit: writeProcedure
    .meta({
      upstream: true,
      heavy: true,
      rest: {
        method: 'POST',
        path: '/api/ereporting/{period}/transmit',
        summary: 'Transmet (ou renvoie corrigée) la déclaration Flux 10 d’une période à la plateforme agréée',
      },
    })
    .input(z.object({ period: ereportingPeriodSchema, kind: ereportingKindSchema }))
    .output(writeAnswer(ereportingTransmitSchema))
    .mutation(({ ctx, input }) => transmitReport(ctx, ctx.organizationId, input.period, input.kind)),
});
