import { z } from 'zod';
import { protectedProcedure, router } from '../trpc';
import { emailSettingsSchema } from '../../shared/schemas/email-settings';
import { getPublicEmailSettings, saveEmailSettings, sendTestEmail } from '../services/email-settings';
import { smtpTestRefusal } from '../auth/rate-limit';

/** Paramètres → Envoi d'emails. The SMTP password never leaves the server: answers carry a mask instead. */
export const emailSettingsRouter = router({
  get: protectedProcedure
    .meta({ rest: { method: 'GET', path: '/api/settings/email', summary: 'Réglages d’envoi des e-mails' } })
    .output(emailSettingsSchema)
    .query(({ ctx }) => getPublicEmailSettings(ctx.db, ctx.organizationId)),
  update: protectedProcedure
    .meta({ rest: { method: 'PUT', path: '/api/settings/email', summary: 'Enregistre les réglages d’envoi des e-mails' } })
    .input(emailSettingsSchema)
    .output(z.object({ messages: z.string(), data: emailSettingsSchema }))
    .mutation(async ({ ctx, input }) => ({
      messages: 'Mise à jour avec succès',
      data: await saveEmailSettings(ctx.db, { organizationId: ctx.organizationId, input, outbound: ctx.env.outbound }),
    })),
  sendTest: protectedProcedure
    .meta({ heavy: true, rest: { method: 'POST', path: '/api/settings/email/test', summary: 'Envoie un e-mail d’essai' } })
    .output(z.object({ messages: z.string() }))
    .mutation(async ({ ctx }) => {
      const refusal = await smtpTestRefusal(ctx.rateLimits, ctx.organizationId);
      if (refusal) throw refusal;
      return { messages: await sendTestEmail(ctx, { organizationId: ctx.organizationId, userId: ctx.userId }) };
    }),
});
