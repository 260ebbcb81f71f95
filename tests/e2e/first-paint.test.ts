// Content at first paint: every main page, opened fresh, shows its own data soon after the navigation starts (the
// page's queries start with the navigation, not after the session and the settings have come back), and a skeleton of
// its real layout meanwhile. The timings are printed, not asserted: a shared 2-core host is too noisy for a bound.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { browserSuite, forEachLook, PHONE, screenshot, WIDE_LOOKS } from '../helpers/browser';
import { defined } from '../../src/shared/defined';
import { draft, line, readyToInvoice } from '../helpers/documents';
import { parisToday } from '../../src/shared/paris-date';

// The built server in its own process, as users run it: the timings are the pages', not the test driver's.
const suite = browserSuite({ kind: 'built' });

interface MainPage {
  name: string;
  path: string;
  /** A text only the page's own data draws (a seeded row, a loaded form's section). */
  content: string;
  /** The procedure whose answer draws that content. */
  procedure: string;
}

const PAGES: MainPage[] = [
  { name: 'Vue d’ensemble', path: '/', content: 'Boulangerie Martin', procedure: 'figures.dashboard' },
  { name: 'Factures', path: '/invoices', content: 'Boulangerie Martin', procedure: 'documents.list' },
  { name: 'Devis', path: '/estimates', content: 'Boulangerie Martin', procedure: 'documents.list' },
  { name: 'Clients', path: '/customers', content: 'Boulangerie Martin', procedure: 'customers.list' },
  { name: 'Articles', path: '/items', content: 'Tirage baryté', procedure: 'items.list' },
  { name: 'Dépenses', path: '/expenses', content: 'Papeterie du Centre', procedure: 'expenses.list' },
  { name: 'Agenda', path: '/appointments', content: 'Point chantier', procedure: 'appointments.list' },
  { name: 'Statistiques', path: '/reports', content: 'Aucune facture émise sur cette période', procedure: 'reports.turnover' },
  { name: 'Paramètres', path: '/settings/general', content: 'Format monétaire', procedure: 'settings.get' },
  { name: 'Apparence', path: '/settings/document', content: 'Partir d’un modèle', procedure: 'settings.get' },
];

/**
 * Installed before the app's first script: the moment (ms since the navigation started) the page's text is first in the
 * document, seen by a MutationObserver (before the frame paints it), and when the requests asked for the API.
 */
function watchFirstContent(page: Page, text: string) {
  return page.addInitScript((wanted) => {
    const w = window as unknown as { __firstContent?: number };
    const check = () => {
      if (w.__firstContent === undefined && document.body?.textContent?.includes(wanted)) w.__firstContent = performance.now();
    };
    new MutationObserver(check).observe(document, { childList: true, subtree: true, characterData: true });
  }, text);
}

async function measure(target: MainPage) {
  const { context, page } = await suite.loggedIn({ width: 1280, height: 900 });
  await watchFirstContent(page, target.content);
  await page.goto(target.path);
  const shown = await page
    .waitForFunction(() => (window as unknown as { __firstContent?: number }).__firstContent !== undefined, null, { timeout: 30_000 })
    .then(() => true)
    .catch(() => false);
  if (!shown) {
    await screenshot(page, `first-paint-missing-${target.path.replace(/\W+/g, '-')}`);
    throw new Error(`${target.name} (${target.path}) : « ${target.content} » n’est pas apparu en 30 s`);
  }
  const timing = await page.evaluate((procedure) => {
    const api = performance
      .getEntriesByType('resource')
      .filter((entry) => entry.name.includes('/api/trpc/'))
      .map((entry) => entry as PerformanceResourceTiming)
      .map((entry) => ({
        name: decodeURIComponent(entry.name),
        start: entry.startTime,
        end: entry.responseEnd,
        // 'link': asked by the HTML's preload, before any script ran; 'fetch': by the client.
        by: entry.initiatorType,
      }));
    const data = api.find((entry) => entry.name.includes(procedure));
    const scripts = performance
      .getEntriesByType('resource')
      .filter((entry) => entry.name.endsWith('.js') && entry.startTime < (window as unknown as { __firstContent: number }).__firstContent);
    return {
      firstContent: (window as unknown as { __firstContent: number }).__firstContent,
      firstApi: api[0]?.start ?? Number.NaN,
      dataStart: data?.start ?? Number.NaN,
      dataEnd: data?.end ?? Number.NaN,
      dataBy: data?.by ?? '—',
      apiRequests: api.length,
      scripts: scripts.length,
      // The client's request that the HTML's preload should have answered, sent again.
      askedTwice: api.filter((entry) => entry.by === 'link' && api.some((other) => other.by !== 'link' && other.name === entry.name))
        .length,
    };
  }, target.procedure);
  await context.close();
  return timing;
}

const ms = (value: number) => (Number.isNaN(value) ? '—' : `${Math.round(value)} ms`);

describe('content at first paint', () => {
  it('every main page, opened fresh: navigation start → its data on screen (printed)', async () => {
    const { customerId } = await readyToInvoice(suite.session);
    // The Paris day the pages show (the agenda's week): the UTC one is yesterday from midnight to 1 or 2 a.m. in Paris.
    const today = parisToday();
    // Drafts: issuing waits for the validation worker, which a loaded host makes slow; the lists show drafts alike.
    await draft(suite.session, { type: 'invoice', date: today, customer_id: customerId, items: [line('Séance photo', 1, 450)] });
    await draft(suite.session, { type: 'estimate', date: today, customer_id: customerId, items: [line('Retouches studio', 3, 60)] });
    const seeded = [
      await suite.session.rest('POST', '/api/items', { name: 'Tirage baryté', unit: 'u', unit_price: 35, kind: 'goods' }),
      await suite.session.rest('POST', '/api/expenses', {
        date: today,
        supplier: 'Papeterie du Centre',
        category: 'supplies',
        amount: 18.9,
        vat: [],
        status: 'paid',
      }),
      await suite.session.rest('POST', '/api/appointments', {
        title: 'Point chantier',
        date: today,
        start: '09:30',
        end: '10:30',
        location: '',
        note: '',
      }),
    ];
    for (const answer of seeded) expect(answer.status, JSON.stringify(answer.body)).toBe(201);

    // The first load of the built chunks warms the server's file cache, as any server past its first visitor.
    await measure(PAGES[0] as MainPage);
    const rows: string[] = [];
    for (const target of PAGES) {
      const t = await measure(target);
      // The page's first data request is named in its HTML (src/server/http/spa-preloads.ts) and taken by the client.
      expect(t.dataBy, `${target.path} : la requête de données vient du préchargement de la page`).toBe('link');
      expect(t.askedTwice, `${target.path} : la requête préchargée n’est pas envoyée une seconde fois`).toBe(0);
      rows.push(
        `| ${target.name.padEnd(16)} | ${target.path.padEnd(18)} | ${ms(t.firstApi).padStart(7)} | ${ms(t.dataStart).padStart(8)} | ${ms(t.dataEnd).padStart(7)} | ${ms(t.firstContent).padStart(7)} | ${String(t.apiRequests).padStart(4)} | ${String(t.scripts).padStart(8)} |`,
      );
    }
    console.info(
      [
        '',
        'Navigation start → … on a fresh load (ms since navigation start; goal: content < 400 ms)',
        '| page             | path               | 1st API | data req | data in | content | reqs | JS files |',
        '|------------------|--------------------|---------|----------|---------|---------|------|----------|',
        ...rows,
        '',
      ].join('\n'),
    );
  });

  it('a phone’s Chromium opens the agenda on its day with the data its HTML named: nothing asked twice', async () => {
    const context = await suite.browser.newContext({
      baseURL: suite.server.url,
      viewport: { ...PHONE },
      // A phone's Chromium says it is one (Sec-CH-UA-Mobile: ?1); the server names the day's appointments, not the week's.
      isMobile: true,
      hasTouch: true,
      userAgent: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36',
      locale: 'fr-FR',
      timezoneId: 'Europe/Paris',
    });
    await context.addCookies([
      { name: 'session', value: defined(defined(suite.session.cookie, 'cookie').split('=')[1]), url: suite.server.url },
    ]);
    const page = await context.newPage();
    await page.goto('/appointments');
    await page.getByRole('heading', { level: 1, name: 'Rendez-vous' }).waitFor();
    await page.waitForLoadState('networkidle');
    const asked = await page.evaluate(() =>
      performance
        .getEntriesByType('resource')
        .map((entry) => entry as PerformanceResourceTiming)
        .filter((entry) => entry.name.includes('appointments.list'))
        .map((entry) => entry.initiatorType),
    );
    // The client's own request for the day took the preloaded answer: none sent by the page itself.
    expect(asked).toEqual(['link']);
    await context.close();
  });

  it('while the API is slow: the shell and the page’s skeleton (its real columns, the dashboard’s cards), light and dark', async () => {
    await forEachLook(
      suite,
      async (page, { theme }) => {
        // Every API answer held 4 s: what a slow network shows from the first paint.
        await page.route('**/api/trpc/**', async (route) => {
          await new Promise((resolve) => setTimeout(resolve, 4000));
          await route.continue().catch(() => undefined);
        });
        await page.goto('/');
        const skeleton = page.getByTestId('page-skeleton');
        await skeleton.waitFor();
        expect(await page.getByTestId('skeleton-card').count()).toBe(6);
        expect(await skeleton.getAttribute('aria-busy')).toBe('true');
        await screenshot(page, `first-paint-skeleton-dashboard-${theme}`, { fullPage: false });

        await page.goto('/invoices');
        await page.getByTestId('page-skeleton').waitFor();
        const headings = await page.getByTestId('page-skeleton').locator('th').allTextContents();
        expect(headings).toEqual(['Numéro', 'Client', 'Date', 'Total TTC', 'Reste dû', 'Statut']);
        await screenshot(page, `first-paint-skeleton-invoices-${theme}`, { fullPage: false });
        // The real rows take the skeleton's place once the answer comes.
        await page.getByTestId('page-skeleton').waitFor({ state: 'detached', timeout: 30_000 });
        await page.getByText('Boulangerie Martin').first().waitFor();
        expect(await page.getByTestId('page-skeleton').count()).toBe(0);
        await page.unrouteAll({ behavior: 'ignoreErrors' });
      },
      { looks: WIDE_LOOKS },
    );
  });
});
