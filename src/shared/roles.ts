/**
 * The roles of a member in an organisation, from the most to the least powerful. The rule each procedure carries
 * (server/trpc.ts) and the screens that hide what a role cannot do both read this one ranking.
 */
export const ROLES = ['owner', 'admin', 'member', 'accountant'] as const;
export type Role = (typeof ROLES)[number];

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

/** Who may call a procedure: `public` needs no session at all, else the capability a member's role must hold. */
export const PROCEDURE_RULES = ['public', ...CAPABILITIES] as const;
export type ProcedureRule = (typeof PROCEDURE_RULES)[number];

/** Whether a member with this role may call a procedure of this rule; no rule at all may not (fail closed). */
export function roleAllows(role: Role, rule: ProcedureRule | undefined): boolean {
  if (rule === undefined) return false;
  return rule === 'public' || roleCan(role, rule);
}

export const ROLE_REFUSAL = 'Action non autorisée pour votre rôle';
