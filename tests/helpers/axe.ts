import { AxeBuilder } from '@axe-core/playwright';
import { expect } from 'vitest';
import type { Page } from 'playwright-core';

/** axe on the page as it stands: a serious or critical violation fails the test, named with the nodes it hit. */
export async function expectNoSeriousViolations(page: Page, label: string): Promise<void> {
  const results = await new AxeBuilder({ page }).analyze();
  const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${label}: ${v.id} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}
