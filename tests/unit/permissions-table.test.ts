import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { appRouter } from '../../src/server/routers/_app';
import { proceduresOf } from '../../src/server/procedures';
import type { ProcedureMeta } from '../../src/server/trpc';
import { PROCEDURE_RULES_FILE, procedureRulesSource } from '../../scripts/procedure-rules';
import { PROCEDURE_RULES as RULE_NAMES, ROLES, roleCan, type ProcedureRule } from '../../src/shared/roles';

const procedures = proceduresOf(appRouter).map(({ path, procedure }) => {
  const meta = procedure._def.meta as ProcedureMeta | undefined;
  return { path, type: procedure._def.type as string, rule: meta?.allow, scope: meta?.apiKeyScope };
});
const ruleOf = (path: string): ProcedureRule => {
  const rule = procedures.find((procedure) => procedure.path === path)?.rule;
  if (!rule) throw new Error(`${path}: no such procedure, or no rule`);
  return rule;
};

/**
 * The reads an accountant may not make, by exception to « reads everything »: who holds an API key, and where the
 * business's data is sent (webhook URLs may carry a receiver's token), are the business of those who manage access.
 */
const MANAGERS_ONLY_READS = ['apiKeys.list', 'webhooks.list', 'webhooks.deliveries', 'einvoicing.settings', 'onlinePayment.settings'];

describe('the rule each procedure carries', () => {
  it('is one of the known rules, for every procedure of the router', () => {
    expect(procedures.filter(({ rule }) => !rule || !RULE_NAMES.includes(rule)).map(({ path }) => path)).toEqual([]);
  });

  it('is what the screens read: the map is written from the router as it is', () => {
    expect(
      readFileSync(PROCEDURE_RULES_FILE, 'utf8'),
      `La carte des règles des écrans est périmée : lancez npm run procedure-rules (${PROCEDURE_RULES_FILE})`,
    ).toBe(procedureRulesSource(appRouter));
  });

  it('lets the accountant read and export everything and write nothing', () => {
    for (const { path, type, rule } of procedures) {
      if (rule === undefined || rule === 'public' || rule === 'self') continue;
      expect(roleCan('accountant', rule), `${path} (${type})`).toBe(type === 'query' && !MANAGERS_ONLY_READS.includes(path));
    }
    // The exceptions are reads kept to owners and admins, nothing looser.
    for (const path of MANAGERS_ONLY_READS) expect(ruleOf(path), path).toBe('manage');
  });

  it('gives the webhooks’ procedures, and only them, the API keys’ webhooks scope', () => {
    expect(procedures.filter(({ scope }) => scope === 'webhooks').map(({ path }) => path)).toEqual(
      procedures.filter(({ path }) => path.startsWith('webhooks.')).map(({ path }) => path),
    );
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
      const rule = ruleOf(path);
      expect(rule !== 'public' && roleCan('member', rule), path).toBe(false);
      expect(rule !== 'public' && roleCan('admin', rule), path).toBe(true);
    }
    for (const path of [
      'documents.create',
      'documents.issue',
      'customers.create',
      'items.update',
      'expenses.create',
      'recurringInvoices.create',
    ]) {
      const rule = ruleOf(path);
      expect(rule !== 'public' && roleCan('member', rule), path).toBe(true);
      expect(rule !== 'public' && roleCan('accountant', rule), path).toBe(false);
    }
    expect(ROLES.filter((role) => roleCan(role, 'own'))).toEqual(['owner']);
  });
});
