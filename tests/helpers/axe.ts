import fs from 'node:fs';
import { createRequire } from 'node:module';
import { expect } from 'vitest';
import type { Frame, Page } from 'playwright-core';

// The axe-core that @axe-core/playwright brings (the same version). Its AxeBuilder is not used: it runs each check
// through a second, blank page that it opens and loads axe into, 4–5 s a check on 2 cores against about 1 s here,
// which over the browser suite's hundred-odd checks was minutes of the CI run.
const requireFromAxePlaywright = createRequire(createRequire(import.meta.url).resolve('@axe-core/playwright'));
const AXE_SOURCE = fs.readFileSync(requireFromAxePlaywright.resolve('axe-core/axe.min.js'), 'utf8');

type AxeNode = { target: string[] };
type AxeViolation = { id: string; impact?: string | null; nodes: AxeNode[] };
type AxeWindow = { axe?: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } };

/** Loads axe into a frame once per document (a navigation starts a new one). */
async function withAxe(frame: Frame): Promise<void> {
  if (await frame.evaluate(() => typeof (window as unknown as AxeWindow).axe === 'object')) return;
  await frame.evaluate(AXE_SOURCE);
}

/** axe on the page as it stands: a serious or critical violation fails the test, named with the nodes it hit. */
export async function expectNoSeriousViolations(page: Page, label: string): Promise<void> {
  // Every frame gets axe, so that axe.run in the top one also checks what the frames show.
  for (const frame of page.frames()) await withAxe(frame);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as AxeWindow).axe;
    if (!axe) throw new Error('axe-core did not load in the page');
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    // Only what the test reads crosses back (the nodes' HTML and DOM references stay in the page).
    return violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => ({ target: n.target.map(String) })) }));
  });
  const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${label}: ${v.id} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}
