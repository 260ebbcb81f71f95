import { z } from 'zod';
import { publicProcedure, router } from '../trpc';
import {
  forgotPasswordInputSchema,
  loginInputSchema,
  registerInputSchema,
  resetPasswordInputSchema,
  userSchema,
  verifyEmailInputSchema,
  acceptInvitationInputSchema,
  tokenSchema,
} from '../../shared/schemas/auth';
import { messageAnswerSchema } from '../../shared/schemas/answers';
import { invitationPreviewSchema } from '../../shared/schemas/members';
import * as auth from '../services/auth';
import { LOGIN_DOOR } from '../../shared/rest-doors';
import * as members from '../services/members';

export const authRouter = router({
  register: publicProcedure
    .meta({
      rest: { method: 'POST', path: '/api/auth/register', status: 201, summary: 'Crée un compte et son entreprise, ouvre la session' },
    })
    .input(registerInputSchema)
    .output(userSchema)
    .mutation(({ ctx, input }) => auth.register(ctx, input)),
  login: publicProcedure
    .meta({ rest: { ...LOGIN_DOOR, summary: 'Ouvre une session' } })
    .input(loginInputSchema)
    .output(userSchema)
    .mutation(({ ctx, input }) => auth.login(ctx, input)),
  logout: publicProcedure
    .meta({ rest: { method: 'POST', path: '/api/auth/logout', summary: 'Ferme la session' } })
    .output(messageAnswerSchema)
    .mutation(async ({ ctx }) => {
      await auth.logout(ctx);
      return { messages: 'Vous êtes déconnecté(e)' };
    }),
  me: publicProcedure
    .meta({ rest: { method: 'GET', path: '/api/auth', summary: 'L’utilisateur connecté' } })
    .output(userSchema)
    .query(({ ctx }) => auth.currentUser(ctx)),
  forgotPassword: publicProcedure
    .meta({ rest: { method: 'POST', path: '/api/auth/password/forgot', summary: 'Envoie un lien de réinitialisation' } })
    .input(forgotPasswordInputSchema)
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await auth.requestPasswordReset(ctx, input.email);
      return { messages: 'Si un compte existe pour cette adresse, un e-mail avec un lien de réinitialisation vient d’être envoyé.' };
    }),
  resetPassword: publicProcedure
    .meta({ rest: { method: 'POST', path: '/api/auth/password/reset', summary: 'Change le mot de passe avec le lien reçu' } })
    .input(resetPasswordInputSchema)
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await auth.resetPassword(ctx, input);
      return { messages: 'Votre mot de passe a été modifié' };
    }),
  verifyEmail: publicProcedure
    .meta({ rest: { method: 'POST', path: '/api/auth/verify_email', summary: 'Confirme l’adresse e-mail' } })
    .input(verifyEmailInputSchema)
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await auth.verifyEmail(ctx, input.token);
      return { messages: 'Votre compte est activé' };
    }),
  invitation: publicProcedure
    .meta({ rest: { method: 'GET', path: '/api/auth/invitation', summary: 'Ce qu’une invitation propose (entreprise, rôle, adresse)' } })
    .input(z.object({ token: tokenSchema }).strict())
    .output(invitationPreviewSchema)
    .query(({ ctx, input }) => members.previewInvitation(ctx, input.token)),
  acceptInvitation: publicProcedure
    .meta({
      rest: {
        method: 'POST',
        path: '/api/auth/invitation/accept',
        summary: 'Crée le compte d’une personne invitée et la fait rejoindre l’entreprise',
      },
    })
    .input(acceptInvitationInputSchema)
    .output(userSchema)
    .mutation(({ ctx, input }) => members.acceptInvitation(ctx, input)),
});

export type AuthUser = z.infer<typeof userSchema>;
