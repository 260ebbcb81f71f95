import { describe, expect, it } from 'vitest';
import { appRouter } from '../../src/server/routers/_app';
import { proceduresOf } from '../../src/server/procedures';
import { MANAGERS_ONLY_READS, PERMISSIONS, PERMISSIONS_FILE } from '../../src/server/auth/permissions';
import { ROLES, roleCan } from '../../src/shared/roles';

const procedures = proceduresOf(appRouter).map(({ path, procedure }) => ({ path, type: procedure._def.type as string }));

describe('the permissions table (issue 18 §2)', () => {
  it('has an entry for every procedure of the router', () => {
    const missing = procedures.filter(({ path }) => PERMISSIONS[path] === undefined).map(({ path }) => path);
    expect(
      missing,
      `Procédures sans permission : ajoutez ${missing.map((p) => `'${p}'`).join(', ')} à PERMISSIONS dans ${PERMISSIONS_FILE} ` +
        `('public', 'self', 'read', 'write', 'manage' ou 'own')`,
    ).toEqual([]);
  });

  it('names no procedure that no longer exists', () => {
    const paths = new Set(procedures.map(({ path }) => path));
    expect(Object.keys(PERMISSIONS).filter((path) => !paths.has(path))).toEqual([]);
  });

  it('lets the accountant read and export everything and write nothing', () => {
    for (const { path, type } of procedures) {
      const needed = PERMISSIONS[path];
      if (needed === undefined || needed === 'public' || needed === 'self') continue;
      expect(roleCan('accountant', needed), `${path} (${type})`).toBe(type === 'query' && !MANAGERS_ONLY_READS.includes(path));
    }
    // The exceptions are reads kept to owners and admins, nothing looser.
    for (const path of MANAGERS_ONLY_READS) expect(PERMISSIONS[path], path).toBe('manage');
  });

  it('keeps settings, members and reserved deletions from members, and the organisation to its owners', () => {
    for (const path of [
      'settings.update',
      'organization.update',
      'customers.delete',
      'items.delete',
      'taxes.create',
      'emailSettings.update',
    ]) {
      expect(roleCan('member', PERMISSIONS[path] as never), path).toBe(false);
      expect(roleCan('admin', PERMISSIONS[path] as never), path).toBe(true);
    }
    for (const path of [
      'documents.create',
      'documents.issue',
      'customers.create',
      'items.update',
      'expenses.create',
      'recurringInvoices.create',
    ]) {
      expect(roleCan('member', PERMISSIONS[path] as never), path).toBe(true);
      expect(roleCan('accountant', PERMISSIONS[path] as never), path).toBe(false);
    }
    expect(ROLES.filter((role) => roleCan(role, 'own'))).toEqual(['owner']);
  });
});
