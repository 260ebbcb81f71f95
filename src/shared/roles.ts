import { z } from 'zod';

/**
 * The roles of a member in an organisation (CONTRACT.md), from the most to the least powerful. The server's table of
 * what each procedure needs (server/auth/permissions.ts) and the screens that hide what a role cannot do both read
 * this one ranking.
 */
export const ROLES = ['owner', 'admin', 'member', 'accountant'] as const;
export type Role = (typeof ROLES)[number];

export const roleSchema = z.enum(ROLES, { error: 'Rôle inconnu : choisissez propriétaire, administrateur, membre ou comptable' });

export const ROLE_LABELS: Record<Role, string> = {
  owner: 'Propriétaire',
  admin: 'Administrateur',
  member: 'Membre',
  accountant: 'Comptable',
};

/**
 * What a procedure needs: `self` acts on the user's own account (switch organisation, own sessions, feedback) and
 * `read` reads or exports the business's records, both for every role; `write` creates and edits records (member
 * and above); `manage` settings, members and the deletions the contract reserves (admin and above); `own` billing,
 * ownership and the organisation itself (owners only).
 */
export const CAPABILITIES = ['self', 'read', 'write', 'manage', 'own'] as const;
export type Capability = (typeof CAPABILITIES)[number];

/** The least powerful role that holds each capability: every role above it holds it too. */
const MINIMUM_ROLE: Record<Capability, Role> = {
  self: 'accountant',
  read: 'accountant',
  write: 'member',
  manage: 'admin',
  own: 'owner',
};

export function roleCan(role: Role, capability: Capability): boolean {
  return ROLES.indexOf(role) <= ROLES.indexOf(MINIMUM_ROLE[capability]);
}

export const ROLE_REFUSAL = 'Action non autorisée pour votre rôle';
