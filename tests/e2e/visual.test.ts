import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { ARTIFACTS, browserSuite, look, openLook } from '../helpers/browser';
import { comparePng, writePng } from '../helpers/png-diff';
import { draft, issued, line, readyToInvoice } from '../helpers/documents';
import { clock } from '../../src/server/clock';

/**
 * The main screens against committed reference images, light and dark at 1440 × 900: a change of the styling layer
 * (recipes, wrappers, tokens) must leave them as they were. `UPDATE_REFERENCES=1` rewrites the references instead of
 * comparing, once a change of look is meant.
 */
const REFERENCES = path.resolve('tests/e2e/references');
const UPDATE = process.env.UPDATE_REFERENCES === '1';
/** Share of pixels allowed to differ: text anti-aliasing on a loaded machine, never a moved border or colour. */
const TOLERANCE = 0.002;
const VIEWPORT = { width: 1440, height: 900 };

// One instant for the server and the page, so that dates, « il y a … » and the dashboard's months never move.
const NOW = new Date('2026-11-20T10:00:00.000Z');
clock.now = () => new Date(NOW);

const suite = browserSuite();

interface Screen {
  name: string;
  path: string;
  /** What shows once the screen has its data. */
  ready: (page: Page) => Promise<void>;
  /** Brings the screen to the state photographed (a dialog open…). */
  act?: (page: Page) => Promise<void>;
}

async function seed(): Promise<{ draftId: number; number: string }> {
  const { session } = suite;
  const { customerId } = await readyToInvoice(session);
  await session.rest('POST', '/api/customers', { name: 'Cabinet Lemoine', email: 'contact@lemoine.test' });
  await session.rest('POST', '/api/customers', { name: 'Studio Verdier', email: 'bonjour@verdier.test' });
  await issued(session, { customer_id: customerId, date: '2026-11-02', items: [line('Audit de marque', 1, 1200)] });
  const second = await issued(session, { customer_id: customerId, date: '2026-11-05', items: [line('Atelier de conception', 2, 450)] });
  const open = await draft(session, {
    customer_id: customerId,
    date: '2026-11-18',
    items: [line('Développement du site', 3, 600), line('Hébergement annuel', 1, 240, 20)],
  });
  for (const [date, supplier, category, amount] of [
    ['2026-11-03', 'EDF', 'energy', 120],
    ['2026-11-10', 'Papeterie du Centre', 'supplies', 48.5],
  ] as const) {
    const answer = await session.rest('POST', '/api/expenses', { date, supplier, category, amount, vat: [], status: 'paid' });
    expect(answer.status).toBe(201);
  }
  return { draftId: open.id, number: second.number };
}

function screens(draftId: number, number: string): Screen[] {
  return [
    { name: 'dashboard', path: '/', ready: (page) => page.getByText('2 factures à encaisser').filter({ visible: true }).first().waitFor() },
    { name: 'invoices', path: '/invoices', ready: (page) => page.getByText(number).filter({ visible: true }).first().waitFor() },
    {
      name: 'invoice-editor',
      path: `/invoices/${draftId}/edit`,
      ready: async (page) => {
        await page
          .getByText('Hébergement annuel')
          .filter({ visible: true })
          .first()
          .or(page.locator('input[value="Hébergement annuel"]').first())
          .waitFor();
      },
    },
    {
      name: 'customers',
      path: '/customers',
      ready: (page) => page.getByText('Studio Verdier').filter({ visible: true }).first().waitFor(),
    },
    {
      name: 'expenses',
      path: '/expenses',
      ready: (page) => page.getByText('Papeterie du Centre').filter({ visible: true }).first().waitFor(),
    },
    {
      name: 'settings',
      path: '/settings/organization',
      ready: (page) => page.getByText('Régime de TVA').filter({ visible: true }).first().waitFor(),
    },
    {
      name: 'settings-document',
      path: '/settings/document',
      ready: (page) => page.getByRole('tab').filter({ visible: true }).first().waitFor(),
    },
    {
      name: 'customer-dialog',
      path: '/customers',
      ready: (page) => page.getByText('Studio Verdier').filter({ visible: true }).first().waitFor(),
      act: async (page) => {
        await page.getByRole('button', { name: 'Nouveau client' }).click();
        await page.getByRole('dialog', { name: 'Nouveau client' }).getByLabel('Nom', { exact: true }).waitFor();
      },
    },
  ];
}

/** Waits until nothing moves: fonts loaded, no request running, two frames painted with the same layout. */
async function settle(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.evaluate(() => new Promise<void>((done) => requestAnimationFrame(() => requestAnimationFrame(() => done()))));
}

describe('the main screens look as their references', () => {
  it('dashboard, invoices, editor, customers, expenses, settings and a dialog, light and dark', { timeout: 600_000 }, async () => {
    const { draftId, number } = await seed();
    const failures: string[] = [];
    for (const theme of ['light', 'dark'] as const) {
      const view = { ...look(theme, 'wide'), viewport: { ...VIEWPORT }, name: `${theme}-1440` };
      const { context, page } = await openLook(suite, view);
      try {
        // A first visit downloads each screen's chunks: on a machine shared by many runs that takes more than 10 s.
        page.setDefaultTimeout(60_000);
        await page.clock.setFixedTime(NOW);
        for (const screen of screens(draftId, number)) {
          await page.goto(screen.path);
          await screen.ready(page).catch(async (error: unknown) => {
            await page.screenshot({ path: path.join(ARTIFACTS, `visual-${screen.name}-${theme}-not-ready.png`) });
            throw error;
          });
          await screen.act?.(page);
          // The pointer rests where it hovers nothing, and no field keeps a blinking caret.
          await page.mouse.move(VIEWPORT.width - 1, VIEWPORT.height - 1);
          await settle(page);
          const name = `${screen.name}-${theme}`;
          const shot = await page.screenshot({ animations: 'disabled', caret: 'hide' });
          const reference = path.join(REFERENCES, `${name}.png`);
          if (UPDATE || !fs.existsSync(reference)) {
            if (!UPDATE) failures.push(`${name} : pas d’image de référence (lancez avec UPDATE_REFERENCES=1)`);
            fs.mkdirSync(REFERENCES, { recursive: true });
            fs.writeFileSync(reference, shot);
            continue;
          }
          const difference = comparePng(shot, fs.readFileSync(reference));
          if (difference.sizeMismatch || difference.ratio > TOLERANCE) {
            fs.mkdirSync(ARTIFACTS, { recursive: true });
            fs.writeFileSync(path.join(ARTIFACTS, `visual-${name}-actual.png`), shot);
            writePng(path.join(ARTIFACTS, `visual-${name}-diff.png`), difference.diff);
            failures.push(`${name} : ${(difference.ratio * 100).toFixed(2)} % des pixels diffèrent (${difference.differing})`);
          }
        }
      } finally {
        await context.close();
      }
    }
    expect(failures).toEqual([]);
  });
});
