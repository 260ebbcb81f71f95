import { z } from 'zod';
import { protectedProcedure, router } from '../trpc';
import { emailSettingsSchema } from '../../shared/schemas/email-settings';
import { getPublicEmailSettings, saveEmailSettings, sendTestEmail } from '../services/email-settings';

/** Paramètres → Envoi d'emails. The SMTP password never leaves the server: answers carry a mask instead. */
export const emailSettingsRouter = router({
  get: protectedProcedure.output(emailSettingsSchema).query(({ ctx }) => getPublicEmailSettings(ctx.db, ctx.organizationId)),
  update: protectedProcedure
    .input(emailSettingsSchema)
    .output(z.object({ messages: z.string(), data: emailSettingsSchema }))
    .mutation(async ({ ctx, input }) => ({
      messages: 'Mise à jour avec succès',
      data: await saveEmailSettings(ctx.db, ctx.organizationId, input),
    })),
  sendTest: protectedProcedure
    .output(z.object({ messages: z.string() }))
    .mutation(async ({ ctx }) => ({ messages: await sendTestEmail(ctx, { organizationId: ctx.organizationId, userId: ctx.userId }) })),
});
