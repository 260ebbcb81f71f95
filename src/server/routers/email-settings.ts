import { z } from 'zod';
import { messageAnswerSchema } from '../../shared/schemas/answers';
import { manageProcedure, publicProcedure, readProcedure, router } from '../trpc';
import { emailSettingsSchema, senderConfirmationInputSchema, senderStateSchema } from '../../shared/schemas/email-settings';
import {
  getPublicEmailSettings,
  getSenderState,
  resendSenderConfirmation,
  saveEmailSettings,
  sendTestEmail,
} from '../services/email-settings';
import { confirmSenderByApi } from '../services/sender-address';
import { senderLinkRefusal, smtpTestRefusal } from '../auth/rate-limit';

/** Paramètres → Envoi d'emails. The SMTP password never leaves the server: answers carry a mask instead. */
export const emailSettingsRouter = router({
  get: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/settings/email', summary: 'Réglages d’envoi des e-mails' } })
    .output(emailSettingsSchema)
    .query(({ ctx }) => getPublicEmailSettings(ctx.db, ctx.organizationId)),
  update: manageProcedure
    .meta({ rest: { method: 'PUT', path: '/api/settings/email', summary: 'Enregistre les réglages d’envoi des e-mails' } })
    .input(emailSettingsSchema)
    .output(z.object({ messages: z.string(), data: emailSettingsSchema }))
    .mutation(({ ctx, input }) => saveEmailSettings(ctx, { organizationId: ctx.organizationId, input })),
  sendTest: manageProcedure
    .meta({ upstream: true, heavy: true, rest: { method: 'POST', path: '/api/settings/email/test', summary: 'Envoie un e-mail d’essai' } })
    .output(messageAnswerSchema)
    .mutation(async ({ ctx }) => {
      const refusal = await smtpTestRefusal(ctx.rateLimits, ctx.organizationId);
      if (refusal) throw refusal;
      return { messages: await sendTestEmail(ctx, { organizationId: ctx.organizationId, userId: ctx.userId }) };
    }),
  sender: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/settings/email/sender', summary: 'Adresse d’expédition : à confirmer ou confirmée' } })
    .output(senderStateSchema)
    .query(({ ctx }) => getSenderState(ctx, ctx.organizationId)),
  resendSenderLink: manageProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/settings/email/sender/resend',
        summary: 'Renvoie le lien de confirmation de l’adresse d’expédition',
      },
    })
    .output(z.object({ messages: z.string(), data: senderStateSchema }))
    .mutation(async ({ ctx }) => {
      const refusal = await senderLinkRefusal(ctx.rateLimits, ctx.organizationId);
      if (refusal) throw refusal;
      return resendSenderConfirmation(ctx, ctx.organizationId);
    }),
  // Whoever reads the sender mailbox may have no account: the mailed token is the key.
  confirmSender: publicProcedure
    .meta({ rest: { method: 'POST', path: '/api/sender/confirm', summary: 'Confirme une adresse d’expédition (lien envoyé par e-mail)' } })
    .input(senderConfirmationInputSchema)
    .output(z.object({ messages: z.string(), address: z.string() }))
    .mutation(({ ctx, input }) => confirmSenderByApi(ctx.db, input.token)),
});
