import { describe, expect, it } from 'vitest';
import { TRPCError } from '@trpc/server';
import { appRouter, createCaller } from '../../src/server/routers/_app';
import { proceduresOf } from '../../src/server/procedures';
import { PROCEDURE_RULES, type Procedure } from '../../src/client/lib/procedure-rules';
import { ROLE_REFUSAL, ROLES, roleAllows, type Role } from '../../src/shared/roles';
import { SETTINGS_CHILDREN } from '../../src/client/navigation';

const paths = proceduresOf(appRouter).map(({ path }) => path);

/** What useCan answers (client/lib/use-can.ts), for any string: a path the map does not know has no rule. */
const roleMayCall = (role: Role, path: string) => roleAllows(role, PROCEDURE_RULES[path as Procedure]);

/**
 * What the server's middleware answers a role for a path, without a database: a refusal is thrown before the input
 * or the handler is reached, so a call that fails for any other reason (no input, no database) was let through.
 */
async function serverRefuses(role: Role, path: string): Promise<boolean> {
  const session = { id: 's', userId: 1, organizationId: 1, role, expiresAt: new Date(Date.now() + 60_000) };
  // biome-ignore lint/suspicious/noExplicitAny: walking the caller by the router's own paths
  let target: any = createCaller({ session } as never);
  for (const part of path.split('.')) target = target[part];
  try {
    await target(undefined);
    return false;
  } catch (error) {
    return error instanceof TRPCError && error.code === 'FORBIDDEN' && error.message === ROLE_REFUSAL;
  }
}

describe('the screens’ check (useCan) and the server agree', () => {
  const protectedPaths = paths.filter((path) => PROCEDURE_RULES[path as Procedure] !== 'public');

  for (const role of ROLES) {
    it(`hides from ${role} exactly what the middleware refuses, for every procedure`, async () => {
      const hidden = protectedPaths.filter((path) => !roleMayCall(role, path));
      const refused: string[] = [];
      for (const path of protectedPaths) if (await serverRefuses(role, path)) refused.push(path);
      expect(refused).toEqual(hidden);
    });
  }

  it('refuses, on the screens, a path the map does not know', () => {
    for (const role of ROLES) expect(roleMayCall(role, 'documents.nothing')).toBe(false);
  });

  it('offers each role the settings pages it may use, and a page to land on', () => {
    const pages = (role: Role) => SETTINGS_CHILDREN.filter((child) => roleMayCall(role, child.can)).map((child) => child.slug);
    expect(pages('owner')).toEqual(SETTINGS_CHILDREN.map((child) => child.slug));
    expect(pages('admin')).toEqual(SETTINGS_CHILDREN.map((child) => child.slug));
    expect(pages('member')).toEqual(['tags', 'bank', 'members', 'devices', 'accounting', 'audit', 'jobs']);
    expect(pages('accountant')).toEqual(['bank', 'members', 'devices', 'accounting', 'audit', 'jobs']);
    for (const child of SETTINGS_CHILDREN) expect(paths, child.slug).toContain(child.can);
  });
});
