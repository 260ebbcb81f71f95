import { z } from 'zod';
import { publicProcedure, router } from '../trpc';
import {
  forgotPasswordInputSchema,
  loginInputSchema,
  messageAnswerSchema,
  registerInputSchema,
  resetPasswordInputSchema,
  userSchema,
  verifyEmailInputSchema,
} from '../../shared/schemas/auth';
import * as auth from '../services/auth';

export const authRouter = router({
  register: publicProcedure
    .input(registerInputSchema)
    .output(userSchema)
    .mutation(({ ctx, input }) => auth.register(ctx, input)),
  login: publicProcedure
    .input(loginInputSchema)
    .output(userSchema)
    .mutation(({ ctx, input }) => auth.login(ctx, input)),
  logout: publicProcedure.output(messageAnswerSchema).mutation(async ({ ctx }) => {
    await auth.logout(ctx);
    return { messages: 'Vous êtes déconnecté(e)' };
  }),
  me: publicProcedure.output(userSchema).query(({ ctx }) => auth.currentUser(ctx)),
  forgotPassword: publicProcedure
    .input(forgotPasswordInputSchema)
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await auth.requestPasswordReset(ctx, input.email);
      return { messages: 'Si un compte existe pour cette adresse, un e-mail avec un lien de réinitialisation vient d’être envoyé.' };
    }),
  resetPassword: publicProcedure
    .input(resetPasswordInputSchema)
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await auth.resetPassword(ctx, input);
      return { messages: 'Votre mot de passe a été modifié' };
    }),
  verifyEmail: publicProcedure
    .input(verifyEmailInputSchema)
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await auth.verifyEmail(ctx, input.token);
      return { messages: 'Votre compte est activé' };
    }),
});

export type AuthUser = z.infer<typeof userSchema>;
