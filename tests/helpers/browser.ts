import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { startTestServer, type TestServer } from './server';
import { startServer, type ServerUnderTest } from './built-server';
import { newUser, Session } from './clients';
import { chromiumFlags } from '../../src/server/pdf/pdf-renderer';
import { defined } from '../../src/shared/defined';
import { unboostedChromium } from './chromium';

/** CONTRACT.md: CHROMIUM_PATH, else Debian's /usr/bin/chromium, else Playwright's own browser. */
function chromiumExecutable(): string | undefined {
  const candidates = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser'].filter(Boolean) as string[];
  const found = candidates.find((p) => fs.existsSync(p));
  if (found) return unboostedChromium(found);
  try {
    const own = chromium.executablePath();
    if (own && fs.existsSync(own)) return own;
  } catch {
    /* no Playwright-managed browser either */
  }
  throw new Error(
    'Aucun Chromium trouvé pour les tests de navigateur. Installez-le (Debian : `apt-get install -y chromium`) ou indiquez son chemin dans CHROMIUM_PATH.',
  );
}

/** The app's own Chromium flags (no sandbox as root). Playwright gives each launch a fresh temporary profile. */
export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumExecutable(),
    headless: true,
    args: chromiumFlags(),
  });
}

const WORKER_BROWSER = Symbol.for('facturier.e2e.browser');

/**
 * The Chromium of this test worker, launched by the first file that needs one and kept for the next ones (the browser
 * suite runs its files one after the other in each worker, without isolation: vite.config.ts): a launch costs two
 * seconds of CPU, fifty times over. Each file works in its own contexts, so nothing of one file is seen by the next;
 * Playwright closes the browser when the worker exits. A browser that crashed is replaced.
 */
export function workerBrowser(): Promise<Browser> {
  const holder = globalThis as { [WORKER_BROWSER]?: Promise<Browser> };
  const kept = holder[WORKER_BROWSER];
  if (kept) {
    return kept.then((browser) => {
      if (browser.isConnected()) return browser;
      delete holder[WORKER_BROWSER];
      return workerBrowser();
    });
  }
  const launched = launchBrowser();
  holder[WORKER_BROWSER] = launched;
  launched.catch(() => delete holder[WORKER_BROWSER]);
  return launched;
}

export const ARTIFACTS = path.resolve('tests/artifacts');

export async function screenshot(
  page: Page,
  name: string,
  { fullPage = true, timeout }: { fullPage?: boolean; timeout?: number } = {},
): Promise<string> {
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const file = path.join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path: file, fullPage, ...(timeout ? { timeout } : {}) });
  return file;
}

export async function newPage(
  browser: Browser,
  baseURL: string,
  opts: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: opts.width ?? 1280, height: opts.height ?? 800 },
    colorScheme: opts.colorScheme ?? 'light',
    locale: 'fr-FR',
    timezoneId: 'Europe/Paris',
  });
  // The server's Content-Security-Policy must never block what the app itself does; a refusal is a bug.
  context.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) cspViolations.push(`${message.location().url}: ${message.text()}`);
  });
  const page = await context.newPage();
  page.setDefaultTimeout(10_000);
  openPages.add(page);
  page.on('close', () => openPages.delete(page));
  return { context, page };
}

/** The pages `newPage` opened and nobody closed yet: what a failed test's report describes. */
const openPages = new Set<Page>();

/** At most this long for what a failed test's report reads of a page: a page that hangs must not hold the run. */
const REPORT_WAIT_MS = 5_000;

/**
 * What each open page shows when a test fails: its address, its dialogs, alerts and snackbar, and a screenshot in
 * the artifacts. A failure on a loaded CI machine is then read from the log, not guessed. `name` names the screenshots
 * (the test file's and the test's names).
 */
export async function describeOpenPages(name: string): Promise<string> {
  const lines: string[] = [];
  let n = 0;
  for (const page of openPages) {
    n += 1;
    if (page.isClosed()) continue;
    const file = `failure-${name.replace(/[^\p{L}\p{N}]+/gu, '-').slice(0, 90)}-${n}`;
    const read = page.evaluate(() =>
      [...document.querySelectorAll('[role="dialog"], [role="alertdialog"], [role="alert"], [data-testid="snackbar"]')]
        .map(
          (e) => `${e.getAttribute('role') ?? e.getAttribute('data-testid')}: ${(e as HTMLElement).innerText.replace(/\s+/g, ' ').trim()}`,
        )
        .filter((line) => !line.endsWith(': ')),
    );
    const late = new Promise<string[]>((resolve) => setTimeout(() => resolve(['(page muette après 5 s)']), REPORT_WAIT_MS).unref());
    const shown = await Promise.race([read, late]).catch((error: unknown) => [`(page illisible : ${String(error)})`]);
    await screenshot(page, file, { fullPage: false, timeout: REPORT_WAIT_MS }).catch(() => undefined);
    lines.push(`page ${n}: ${page.url()} (screenshot ${file}.png)`, ...shown.map((line) => `  ${line}`));
  }
  return lines.join('\n');
}

/** The report of `describeOpenPages` on the error output, under the failed test's name, when a page is open. */
export async function reportOpenPages(name: string): Promise<void> {
  const described = await describeOpenPages(name);
  if (described) console.error(`\nÀ l’échec de « ${name} » :\n${described}`);
}

/** What the Content-Security-Policy refused in any page of this test file (browser suites assert it stays empty). */
export const cspViolations: string[] = [];

/**
 * Ark registers a modal dialog's dismiss layer (Escape, outside click) one frame after it opens, and then blocks
 * pointer events on the body: wait for that before pressing Escape, as no person could press it sooner.
 */
export async function dialogLayerReady(page: Page): Promise<void> {
  await page.waitForFunction(() => document.body.style.pointerEvents === 'none');
}

/** A way the app is seen: a theme and a screen size. */
export interface Look {
  theme: 'light' | 'dark';
  size: 'wide' | 'phone';
  viewport: { width: number; height: number };
  /** `light-wide`, `dark-phone`…: for screenshot names and axe labels. */
  name: string;
}

export const WIDE = { width: 1280, height: 900 } as const;
/** A common phone (iPhone 12 to 15): below the 960 px the app treats as a wide screen. */
export const PHONE = { width: 390, height: 844 } as const;

export const look = (theme: Look['theme'], size: Look['size']): Look => ({
  theme,
  size,
  viewport: size === 'wide' ? { ...WIDE } : { ...PHONE },
  name: `${theme}-${size}`,
});

/** Light and dark, each wide and on a phone. */
export const LOOKS: readonly Look[] = [look('light', 'wide'), look('light', 'phone'), look('dark', 'wide'), look('dark', 'phone')];
export const WIDE_LOOKS = LOOKS.filter((l) => l.size === 'wide');
export const PHONE_LOOKS = LOOKS.filter((l) => l.size === 'phone');

/** DISPLAY_STORAGE_KEY of src/client/stores/display.ts, whose module is not imported here: it starts a store. */
const DISPLAY_STORAGE_KEY = 'facturier.display';

type PageOpener = (opts: Parameters<typeof newPage>[2]) => Promise<{ context: BrowserContext; page: Page }>;

/**
 * A page in `look`: its viewport, and its theme chosen both by the OS (prefers-color-scheme) and in the stored
 * display settings, as a user who picked it would have it. The settings are written before the app's first script
 * and only while none are stored, so a change the test makes in the page survives its reloads. `display` adds
 * other settings (rail, font size). `open` is a suite's `loggedIn` or any function opening a logged-in page.
 */
export async function openLook(
  open: BrowserSuite<{ url: string }> | PageOpener,
  view: Look,
  display: Record<string, unknown> = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const opener = typeof open === 'function' ? open : open.loggedIn;
  const { context, page } = await opener({ ...view.viewport, colorScheme: view.theme });
  await context.addInitScript(
    ([key, settings]) => {
      if (!localStorage.getItem(key)) localStorage.setItem(key, JSON.stringify(settings));
    },
    [DISPLAY_STORAGE_KEY, { theme: view.theme, theme_mode: view.theme, ...display }] as const,
  );
  return { context, page };
}

/**
 * The fewest of `looks` that still show every theme and every size among them (light-wide and dark-phone for all
 * four): a theme's contrast and a size's layout are each checked, without paying every pairing on each run. Each
 * screen in all its looks is a page load, a full-page screenshot and an axe run (seconds each on 2 cores), and the
 * pairings cost the browser suite half its time; `E2E_LOOKS=all` runs them all, as when a screen's look changes.
 */
export function coveringLooks(looks: readonly Look[], all = process.env.E2E_LOOKS === 'all'): readonly Look[] {
  if (all) return looks;
  const kept: Look[] = [];
  const uncovered = new Set<string>(looks.flatMap((l) => [l.theme, l.size]));
  while (uncovered.size > 0) {
    const gain = (l: Look) => Number(uncovered.has(l.theme)) + Number(uncovered.has(l.size));
    const best = looks.reduce((a, b) => (gain(b) > gain(a) ? b : a));
    kept.push(best);
    uncovered.delete(best.theme);
    uncovered.delete(best.size);
  }
  return looks.filter((l) => kept.includes(l));
}

/**
 * The light/dark × wide/phone loop of the screenshot tests: `body` runs once per look of `coveringLooks` (of all
 * four unless `looks` says otherwise), one after the other, each in a fresh page from `openLook`, whose context is
 * closed afterwards even when `body` fails (the failure then ends the loop and the test).
 */
export async function forEachLook(
  open: BrowserSuite<{ url: string }> | PageOpener,
  body: (page: Page, look: Look) => Promise<void>,
  options: { looks?: readonly Look[]; display?: (look: Look) => Record<string, unknown> } = {},
): Promise<void> {
  for (const view of coveringLooks(options.looks ?? LOOKS)) {
    const { context, page } = await openLook(open, view, options.display?.(view));
    try {
      await body(page, view);
    } catch (error) {
      // Read before the page closes below: the failed test's own report comes after, when it is gone.
      const { testPath, currentTestName } = expect.getState();
      await reportOpenPages(`${path.basename(testPath ?? '')} › ${currentTestName ?? 'test'} (${view.name})`);
      throw error;
    } finally {
      await context.close();
    }
  }
}

export interface BrowserSuite<S extends { url: string } = TestServer> {
  server: S;
  browser: Browser;
  /** The registered user's session (REST and tRPC), whose cookie `loggedIn` pages carry. */
  session: Session;
  loggedIn(opts?: Parameters<typeof newPage>[2]): Promise<{ context: BrowserContext; page: Page }>;
  /** A page carrying another session's cookie (a user of another organisation). */
  loggedInAs(session: Session, opts?: Parameters<typeof newPage>[2]): Promise<{ context: BrowserContext; page: Page }>;
}

/**
 * For a browser test file: a real server on a fresh database, a Chromium and one registered user, set up before the
 * file's tests and closed after them. The server runs in this process (its `app` at hand), or, with `kind: 'built'`,
 * as `npm start` runs it: the bundled server in a process of its own, with nothing else on its event loop (the
 * browser's driver runs in this one), which is what a timing of the pages must measure.
 */
export function browserSuite(): BrowserSuite;
export function browserSuite(opts: { kind: 'built' }): BrowserSuite<ServerUnderTest>;
export function browserSuite(options: { kind?: 'built' } = {}): BrowserSuite<TestServer | ServerUnderTest> {
  const suite = {
    loggedIn(opts = {}) {
      return suite.loggedInAs(suite.session, opts);
    },
    async loggedInAs(session: Session, opts = {}) {
      const { context, page } = await newPage(suite.browser, suite.server.url, opts);
      await context.addCookies([
        { name: 'session', value: defined(defined(session.cookie, 'session.cookie').split('=')[1]), url: suite.server.url },
      ]);
      return { context, page };
    },
  } as BrowserSuite<TestServer | ServerUnderTest>;
  beforeAll(async () => {
    cspViolations.length = 0;
    suite.server = options.kind === 'built' ? await startServer('built') : await startTestServer();
    suite.browser = await workerBrowser();
    suite.session = new Session(suite.server.url);
    await suite.session.rest('POST', '/api/auth/register', newUser());
  });
  afterAll(async () => {
    // The browser outlives the file (workerBrowser): what the file left open is closed, the browser kept.
    await Promise.all(suite.browser?.contexts().map((context) => context.close()) ?? []);
    await suite.server?.close();
    expect(cspViolations).toEqual([]);
  });
  return suite;
}

/** The field kit's Select (Ark): a combobox button named by its label; its options show in a listbox once open. */
export const selectNamed = (scope: Page | Locator, label: string): Locator => scope.getByRole('combobox', { name: label, exact: true });

/** Picks `option` in the kit's Select named `label`, the way a user does: open the list, click the option. */
export async function chooseOption(scope: Page | Locator, label: string, option: string): Promise<void> {
  const trigger = selectNamed(scope, label);
  const choice = trigger.page().getByRole('listbox').getByRole('option', { name: option, exact: true });
  await trigger.click();
  await choice.click();
  await expect.poll(() => trigger.getAttribute('aria-expanded')).toBe('false');
}

/** The options of the kit's Select named `label`, as its open list shows them (closed again afterwards). */
export async function optionsOf(scope: Page | Locator, label: string): Promise<string[]> {
  const trigger = selectNamed(scope, label);
  await trigger.click();
  const list = trigger.page().getByRole('listbox');
  await list.getByRole('option').first().waitFor();
  const texts = await list.getByRole('option').allInnerTexts();
  await trigger.page().keyboard.press('Escape');
  return texts.map((t) => t.trim());
}

/** The label of the option chosen in the kit's Select named `label`. */
export const chosenOption = async (scope: Page | Locator, label: string): Promise<string> =>
  (await selectNamed(scope, label).innerText()).trim();
