import { z } from 'zod';
import { messageAnswerSchema } from '../../shared/schemas/answers';
import { publicProcedure, router } from '../trpc';
import { getSharedDocument } from '../services/share';
import { sharedDocumentSchema } from '../../shared/schemas/document-model';
import { documentTemplateSchema } from '../../shared/schemas/template';
import { appSettingsSchema } from '../../shared/schemas/settings';
import { transferViewSchema } from '../../shared/schemas/transfer';
import { acceptQuoteInputSchema, refuseQuoteInputSchema } from '../../shared/schemas/document-mail';
import { answerQuote, getQuoteState } from '../services/quote-response';
import { cardCheckoutSchema } from '../../shared/schemas/online-payment';
import { createCardCheckout } from '../services/card-payments';

const shareUuid = z.string({ error: 'Lien invalide' }).max(64, 'Lien invalide');

export const shareRouter = router({
  /** The public page of one issued document, by its uuid (no session needed). */
  get: publicProcedure
    .meta({ rest: { method: 'GET', path: '/api/share/{uuid}', summary: 'La page publique d’un document : ses données, sans session' } })
    .input(
      z.object({
        uuid: z.string({ error: 'Lien invalide' }).max(64, 'Lien invalide'),
        print: z.union([z.boolean(), z.enum(['1', 'true'])]).optional(),
      }),
    )
    .output(
      z.object({
        document: sharedDocumentSchema,
        /** How to pay the invoice by SEPA transfer (its EPC069-12 QR code), null when there is nothing to pay that way. */
        transfer: transferViewSchema.nullable(),
        template: documentTemplateSchema,
        settings: appSettingsSchema.pick({ currency_format: true, address_format: true }),
        logo_url: z.string().nullable(),
        /** « Payer par carte »: an unpaid invoice of an organisation that entered its Stripe keys. */
        card_payment: z.boolean(),
      }),
    )
    // The PDF renderer's own visit (print) is not a customer's view.
    .query(({ ctx, input }) => getSharedDocument(ctx.db, input.uuid.toLowerCase(), { recordView: !input.print })),
  /** « Payer par carte »: a Stripe Checkout Session for what is left to pay; the browser goes to its URL. */
  checkout: publicProcedure
    .meta({
      upstream: true,
      rest: {
        method: 'POST',
        path: '/api/share/{uuid}/checkout',
        summary: 'Ouvre le paiement par carte (Stripe Checkout) du reste à payer',
      },
    })
    .input(z.object({ uuid: shareUuid }))
    .output(cardCheckoutSchema)
    .mutation(({ ctx, input }) => createCardCheckout(ctx, input.uuid.toLowerCase(), ctx.env.appUrl)),
  /** Whether the public page of an estimate offers « Accepter » and « Refuser » (null: not an estimate). */
  quote: publicProcedure
    .meta({ rest: { method: 'GET', path: '/api/share/{uuid}/quote', summary: 'État d’un devis pour sa page publique' } })
    .input(z.object({ uuid: shareUuid }))
    .output(
      z
        .object({
          state: z.enum(['pending', 'accepted', 'refused', 'closed']),
          valid_until: z.string().nullable(),
          expired: z.boolean(),
          answered: z.object({ name: z.string(), at: z.string() }).nullable(),
        })
        .nullable(),
    )
    .query(({ ctx, input }) => getQuoteState(ctx.db, input.uuid.toLowerCase())),
  /** The customer accepts an issued estimate on its public page: name, « Bon pour accord », time, IP and browser kept. */
  accept: publicProcedure
    .meta({ rest: { method: 'POST', path: '/api/share/{uuid}/accept', summary: 'Le client accepte un devis en ligne' } })
    .input(z.object({ uuid: shareUuid }).extend(acceptQuoteInputSchema.shape))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: await answerQuote(
        ctx,
        input.uuid.toLowerCase(),
        { decision: 'accepted', name: input.name, reason: '' },
        { ip: ctx.ip, userAgent: ctx.userAgent },
      ),
    })),
  /** The customer refuses it, saying why. */
  refuse: publicProcedure
    .meta({ rest: { method: 'POST', path: '/api/share/{uuid}/refuse', summary: 'Le client refuse un devis en ligne' } })
    .input(z.object({ uuid: shareUuid }).extend(refuseQuoteInputSchema.shape))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => ({
      messages: await answerQuote(
        ctx,
        input.uuid.toLowerCase(),
        { decision: 'refused', name: '', reason: input.reason },
        { ip: ctx.ip, userAgent: ctx.userAgent },
      ),
    })),
});
