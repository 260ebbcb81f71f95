import { z } from 'zod';
import { manageProcedure, ownerProcedure, readProcedure, selfProcedure, router } from '../trpc';
import { idSchema } from '../../shared/schemas/reference';
import { tokenSchema, userSchema } from '../../shared/schemas/auth';
import { messageAnswerSchema } from '../../shared/schemas/answers';
import { inviteInputSchema, membersAnswerSchema, organizationsAnswerSchema } from '../../shared/schemas/members';
import { roleSchema } from '../../shared/schemas/role';
import * as members from '../services/members';

export const membersRouter = router({
  list: readProcedure
    .meta({ rest: { method: 'GET', path: '/api/members', summary: 'Les membres de l’équipe et les invitations en attente' } })
    .output(membersAnswerSchema)
    .query(({ ctx }) => members.teamOf(ctx)),
  invite: manageProcedure
    .meta({
      limit: { key: 'members' },
      rest: { method: 'POST', path: '/api/members', status: 201, summary: 'Invite une personne par e-mail, avec un rôle' },
    })
    .input(inviteInputSchema)
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await members.invite(ctx, input);
      return { messages: `Invitation envoyée à ${input.email}` };
    }),
  updateRole: manageProcedure
    .meta({ rest: { method: 'PUT', path: '/api/members/{id}', summary: 'Change le rôle d’un membre' } })
    .input(z.object({ id: idSchema, role: roleSchema.meta({ label: 'Rôle' }) }).strict())
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await members.changeRole(ctx, input.id, input.role);
      return { messages: 'Rôle modifié' };
    }),
  remove: manageProcedure
    .meta({ rest: { method: 'DELETE', path: '/api/members/{id}', summary: 'Retire un membre de l’équipe' } })
    .input(z.object({ id: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      const note = await members.removeMember(ctx, input.id);
      return { messages: note ? `Membre retiré de l’équipe. ${note}` : 'Membre retiré de l’équipe' };
    }),
  transferOwnership: ownerProcedure
    .meta({ rest: { method: 'POST', path: '/api/members/{id}/owner', summary: 'Transmet la propriété à un membre' } })
    .input(z.object({ id: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      await members.transferOwnership(ctx, input.id);
      return { messages: 'Propriété transmise : vous êtes désormais administrateur' };
    }),
  revokeInvitation: manageProcedure
    .meta({ rest: { method: 'DELETE', path: '/api/members/invitations/{id}', summary: 'Révoque une invitation en attente' } })
    .input(z.object({ id: idSchema }))
    .output(messageAnswerSchema)
    .mutation(async ({ ctx, input }) => {
      const note = await members.withdrawInvitation(ctx, input.id);
      return { messages: note ? `Invitation révoquée. ${note}` : 'Invitation révoquée' };
    }),
  join: selfProcedure
    .meta({ rest: { method: 'POST', path: '/api/members/join', summary: 'Rejoint une entreprise avec le lien d’invitation reçu' } })
    .input(z.object({ token: tokenSchema }).strict())
    .output(userSchema)
    .mutation(({ ctx, input }) => members.joinWithInvitation(ctx, input.token)),
});

export const organizationsRouter = router({
  list: selfProcedure
    .meta({ rest: { method: 'GET', path: '/api/organizations', summary: 'Les entreprises de l’utilisateur' } })
    .output(organizationsAnswerSchema)
    .query(({ ctx }) => members.organizationsOf(ctx)),
  switch: selfProcedure
    .meta({ rest: { method: 'POST', path: '/api/organizations/{id}/switch', summary: 'Passe la session sur une autre entreprise' } })
    .input(z.object({ id: idSchema }))
    .output(userSchema)
    .mutation(({ ctx, input }) => members.switchOrganization(ctx, input.id)),
});
