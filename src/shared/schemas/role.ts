import { z } from 'zod';
import { ROLES } from '../roles';

/** A member's role, as the schemas check it (roles.ts ranks the roles; the shell reads that list without zod). */
export const roleSchema = z.enum(ROLES, { error: 'Rôle inconnu : choisissez propriétaire, administrateur, membre ou comptable' });
