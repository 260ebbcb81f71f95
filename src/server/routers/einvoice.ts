import { z } from 'zod';
import { readProcedure, writeProcedure, router } from '../trpc';
import { idSchema } from '../../shared/schemas/reference';
import { writeAnswer } from '../../shared/schemas/answers';
import { lifecycleAnswerSchema, lifecycleInputSchema, transmissionSchema } from '../../shared/schemas/einvoice-lifecycle';
import { fail } from '../errors';
import { getLifecycle, recordManualStatus } from '../services/einvoice-lifecycle';
import { pollPlatform, sendToPlatform } from '../services/einvoice-send';
import { transmitDocument } from '../services/einvoice-transmit';
import { plural, pluralWord } from '../../shared/french';

const sirenSchema = z
  .string({ error: 'SIREN : 9 chiffres attendus' })
  .transform((s) => s.replace(/\s/g, ''))
  .pipe(z.string().regex(/^\d{9}$/, 'SIREN : 9 chiffres attendus'))
  .meta({ label: 'SIREN' });

/** The reform's lifecycle statuses of issued invoices and credit notes, and the approved platform. */
export const einvoiceRouter = router({
  lifecycle: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/documents/{id}/lifecycle', summary: 'Cycle de vie (facture électronique) d’un document' } })
    .input(z.object({ id: idSchema }))
    .output(lifecycleAnswerSchema)
    .query(({ ctx, input }) => getLifecycle(ctx.db, ctx.organizationId, input.id)),
  recordStatus: writeProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/documents/{id}/lifecycle',
        status: 201,
        bodyKey: 'data',
        summary: 'Déclare un statut (ex. refusée)',
      },
    })
    .input(z.object({ id: idSchema, data: lifecycleInputSchema }))
    .output(writeAnswer(lifecycleAnswerSchema))
    .mutation(async ({ ctx, input }) => ({
      messages: 'Statut enregistré',
      data: await recordManualStatus(ctx.db, ctx.organizationId, input.id, input.data, ctx.userId),
    })),
  send: writeProcedure
    .meta({
      upstream: true,
      heavy: true,
      rest: { method: 'POST', path: '/api/documents/{id}/einvoice/send', summary: 'Dépose la facture sur la plateforme agréée' },
    })
    .input(z.object({ id: idSchema }))
    .output(writeAnswer(lifecycleAnswerSchema))
    .mutation(({ ctx, input }) => sendToPlatform(ctx.db, ctx.einvoice, ctx.organizationId, input.id, ctx.userId)),
  transmit: writeProcedure
    .meta({
      heavy: true,
      rest: {
        method: 'POST',
        path: '/api/documents/{id}/transmit',
        summary: 'Transmet (ou renvoie) la facture par l’API de la plateforme agréée',
      },
    })
    .input(z.object({ id: idSchema }))
    .output(writeAnswer(transmissionSchema))
    .mutation(({ ctx, input }) => transmitDocument(ctx.db, ctx.einvoice.outbox, ctx.organizationId, input.id)),
  poll: writeProcedure
    .meta({ upstream: true, rest: { method: 'POST', path: '/api/einvoice/poll', summary: 'Relève les statuts de la plateforme' } })
    .output(writeAnswer(z.object({ recorded: z.number().int(), refused: z.number().int() })))
    .mutation(async ({ ctx }) => {
      const data = await pollPlatform(ctx.db, ctx.einvoice.connector, ctx.organizationId);
      return { messages: `${plural(data.recorded, 'statut')} ${pluralWord(data.recorded, 'relevé')}`, data };
    }),
  directory: readProcedure
    .meta({
      upstream: true,
      rest: { method: 'GET', path: '/api/einvoice/directory/{siren}', summary: 'Annuaire : où un SIREN reçoit ses factures' },
    })
    .input(z.object({ siren: sirenSchema }))
    .output(z.object({ siren: z.string(), name: z.string(), platform: z.string(), routing_id: z.string() }))
    .query(async ({ ctx, input }) => {
      const entry = await ctx.einvoice.connector.lookupDirectory({ organizationId: ctx.organizationId }, input.siren);
      return entry ?? fail('NOT_FOUND', `Le SIREN ${input.siren} n’est pas inscrit à l’annuaire de la facturation électronique`);
    }),
});
