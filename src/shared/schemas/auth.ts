import { z } from 'zod';
import { roleSchema } from './role';
import { PASSWORD_MIN_LENGTH } from '../password-rules';

export { PASSWORD_MIN_LENGTH };

const requiredText = (max: number, missing: string, tooLong: string) =>
  z.string({ error: missing }).trim().min(1, missing).max(max, tooLong);

export const emailSchema = z
  .string({ error: 'L’adresse e-mail est obligatoire' })
  .trim()
  .toLowerCase()
  .min(1, 'L’adresse e-mail est obligatoire')
  .max(254, 'L’adresse e-mail est trop longue')
  .pipe(z.email({ error: 'Adresse e-mail invalide' }));

/** Capped so that a megabyte "password" cannot make argon2 the cost of a request. */
export const newPasswordSchema = z
  .string({ error: 'Le mot de passe est obligatoire' })
  .min(PASSWORD_MIN_LENGTH, `Le mot de passe doit contenir au moins ${PASSWORD_MIN_LENGTH} caractères`)
  .max(256, 'Le mot de passe ne doit pas dépasser 256 caractères');

export const registerInputSchema = z
  .object({
    first_name: requiredText(100, 'Le prénom est obligatoire', 'Le prénom ne doit pas dépasser 100 caractères').meta({ label: 'Prénom' }),
    last_name: requiredText(100, 'Le nom est obligatoire', 'Le nom ne doit pas dépasser 100 caractères').meta({ label: 'Nom' }),
    email: emailSchema.meta({ label: 'E-mail' }),
    password: newPasswordSchema.meta({ label: 'Mot de passe' }),
    organization: requiredText(
      200,
      'Le nom de l’entreprise est obligatoire',
      'Le nom de l’entreprise ne doit pas dépasser 200 caractères',
    ).meta({ label: 'Entreprise' }),
  })
  .strict();
export type RegisterInput = z.infer<typeof registerInputSchema>;

/** Registration through an invitation: the address and the organisation come from the invitation. */
export const acceptInvitationInputSchema = registerInputSchema
  .pick({ first_name: true, last_name: true, password: true })
  .extend({ token: z.string({ error: 'Le lien d’invitation est invalide ou a expiré' }).trim().min(1).max(200) })
  .strict();
export type AcceptInvitationInput = z.infer<typeof acceptInvitationInputSchema>;

export const loginInputSchema = z
  .object({
    email: emailSchema.meta({ label: 'E-mail' }),
    password: z
      .string({ error: 'Le mot de passe est obligatoire' })
      .min(1, 'Le mot de passe est obligatoire')
      .max(256, 'Le mot de passe ne doit pas dépasser 256 caractères')
      .meta({ label: 'Mot de passe' }),
  })
  .strict();
export type LoginInput = z.infer<typeof loginInputSchema>;

export const forgotPasswordInputSchema = z.object({ email: emailSchema }).strict();

export const tokenSchema = z
  .string({ error: 'Le lien est invalide ou a expiré' })
  .trim()
  .min(1, 'Le lien est invalide ou a expiré')
  .max(200, 'Le lien est invalide ou a expiré')
  .meta({ label: 'Lien' });

export const resetPasswordInputSchema = z.object({ token: tokenSchema, password: newPasswordSchema }).strict();
export const verifyEmailInputSchema = z.object({ token: tokenSchema }).strict();

export const membershipRoleSchema = roleSchema;

/** The user object of every auth answer: never a password hash. */
export const userSchema = z.object({
  id: z.number().int().meta({ label: 'Identifiant' }),
  first_name: z.string().meta({ label: 'Prénom' }),
  last_name: z.string().meta({ label: 'Nom' }),
  email: z.string().meta({ label: 'E-mail' }),
  email_verified_at: z.string().nullable(),
  created_at: z.string(),
  role: membershipRoleSchema,
  organization: z.object({ id: z.number().int(), name: z.string() }).meta({ label: 'Entreprise' }),
});
export type User = z.infer<typeof userSchema>;
