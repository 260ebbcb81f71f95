import { z } from 'zod';
import { roleSchema } from './role';
import { emailSchema } from './auth';

export const INVITATION_REFUSAL = 'Ce lien d’invitation est invalide, a expiré ou a déjà servi. Demandez-en un nouveau.';

export const inviteInputSchema = z
  .object({ email: emailSchema.meta({ label: 'E-mail' }), role: roleSchema.meta({ label: 'Rôle' }) })
  .strict();
export type InviteInput = z.infer<typeof inviteInputSchema>;

export const memberSchema = z.object({
  id: z.number().int(),
  user_id: z.number().int(),
  first_name: z.string(),
  last_name: z.string(),
  email: z.string(),
  role: roleSchema,
  created_at: z.string(),
  /** The member is the user asking. */
  current: z.boolean(),
});
export type Member = z.infer<typeof memberSchema>;

export const invitationSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  role: roleSchema,
  expires_at: z.string(),
  created_at: z.string(),
});
export type Invitation = z.infer<typeof invitationSchema>;

export const membersAnswerSchema = z.object({ members: z.array(memberSchema), invitations: z.array(invitationSchema) });

/** What the invitation page shows before the person registers or joins. */
export const invitationPreviewSchema = z.object({ email: z.string(), role: roleSchema, organization: z.string() });

export const organizationChoiceSchema = z.object({ id: z.number().int(), name: z.string(), role: roleSchema, current: z.boolean() });
export const organizationsAnswerSchema = z.object({ data: z.array(organizationChoiceSchema) });
