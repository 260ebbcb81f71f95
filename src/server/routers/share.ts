import { z } from 'zod';
import { publicProcedure, router } from '../trpc';
import { getSharedDocument } from '../services/share';
import { sharedDocumentSchema } from '../../shared/schemas/document-model';
import { documentTemplateSchema } from '../../shared/schemas/template';
import { appSettingsSchema } from '../../shared/schemas/settings';

export const shareRouter = router({
  /** The public page of one issued document, by its uuid (no session needed). */
  get: publicProcedure
    .meta({ rest: { method: 'GET', path: '/api/share/{uuid}' } })
    .input(
      z.object({
        uuid: z.string({ error: 'Lien invalide' }).max(64, 'Lien invalide'),
        print: z.union([z.boolean(), z.enum(['1', 'true'])]).optional(),
      }),
    )
    .output(
      z.object({
        document: sharedDocumentSchema,
        template: documentTemplateSchema,
        settings: appSettingsSchema.pick({ currency_format: true, address_format: true }),
        logo_url: z.string().nullable(),
      }),
    )
    // The PDF renderer's own visit (print) is not a customer's view.
    .query(({ ctx, input }) => getSharedDocument(ctx.db, input.uuid.toLowerCase(), { recordView: !input.print })),
});
