import fs from 'node:fs';
import os from 'node:os';
import type { Browser, Page } from 'playwright-core';
import { AppError, SERVER_STOPPING_MESSAGE } from '../errors';
import { runsAsRoot } from '../env';
import { logger } from '../logger';

/**
 * The flags of every launch: no background traffic, and the sandbox unless `sandbox` is false. Chromium refuses its
 * sandbox as root, so a process running as root (the tests and benches on these machines) turns it off.
 */
export function chromiumFlags(sandbox = !runsAsRoot()): string[] {
  return sandbox ? CHROMIUM_FLAGS : ['--no-sandbox', ...CHROMIUM_FLAGS];
}

/**
 * Playwright's own `--disable-features` list (playwright-core 1.65.1). Chromium keeps only the last `--disable-features`
 * of its command line and Playwright passes its list before ours, so ours repeats it: otherwise the features Playwright
 * turns off (background requests to Google among them) would come back. tests/unit/chromium-flags.test.ts reads the
 * installed playwright-core's list and fails when one is missing here.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * What a headless page never shows but Chromium builds for every window, hence for every context: the address bar's
 * two WebUI popups, each a renderer process of its own. Measured on 30 contexts each loading a page: 0.7 s of CPU per
 * context with them, 0.4 s without (`/usr/bin/time`, Chromium 156); two processes fewer per PDF page as well.
 */
const OUR_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

const CHROMIUM_FLAGS = [
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OUR_DISABLED_FEATURES].join(',')}`,
];
/** One page per core, at least two: printing is Chromium's CPU work, pages beyond the cores would only queue in it. */
export const POOL_SIZE = Math.min(8, Math.max(2, os.availableParallelism()));
/** A page prints this many documents, then is replaced: whatever a long-lived page gathers stays bounded. */
const RENDERS_PER_PAGE = 500;
const RENDER_TIMEOUT_MS = 30_000;

export class ChromiumMissingError extends Error {}

/** A render asked or still waiting once the renderer is closed: the process is stopping, the client retries. */
const rendererClosed = () => new AppError('SERVICE_UNAVAILABLE', SERVER_STOPPING_MESSAGE);

/** The owner of a render that already had its turn and only waits for a page to replace a broken one. */
const FRESH_PAGE = '\0replacement';

/** Whether `url` is on exactly `origin` (scheme, host and port): what the printer may fetch. */
export function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === new URL(origin).origin;
  } catch {
    return false;
  }
}

/** The Chromium binary: CHROMIUM_PATH, else Debian's. */
export function findChromium(configured: string | undefined): string | undefined {
  const candidates = configured ? [configured] : ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
  return candidates.find((p) => fs.existsSync(p));
}

/** A kept page: the origin whose app it has loaded (undefined: none yet), and how many PDFs it printed. */
interface Slot {
  page: Page;
  origin: string | undefined;
  renders: number;
}

/**
 * Waits inside the page for the root that says ready under `key`, then for its fonts: one call, woken by the change
 * itself (no polling), failing after `timeout` ms. Source text, not a function: a transpiler's helpers (tsx's
 * `__name`) would be missing in the page.
 */
const whenReady = (key: string, timeout: number) => `new Promise((resolve, reject) => {
  const selector = ${JSON.stringify(`[data-render-key="${key}"][data-render-ready="true"]`)};
  let observer;
  const timer = setTimeout(() => {
    observer?.disconnect();
    reject(new Error('page not ready after ${timeout} ms'));
  }, ${timeout});
  const check = () => {
    if (!document.querySelector(selector)) return false;
    observer?.disconnect();
    clearTimeout(timer);
    document.fonts.ready.then(() => resolve());
    return true;
  };
  if (!check()) {
    observer = new MutationObserver(check);
    observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-render-ready'] });
  }
})`;

type Waiter = { resolve: (slot: Slot) => void; reject: (error: unknown) => void };

/**
 * Renders waiting for a page, served in turn by owner (the organisation): a free page goes to the next owner in the
 * rotation, each owner's renders in their order. One business printing 200 PDFs delays another's one PDF by at most
 * one render per business waiting, not by 200.
 *
 * Per process, on purpose, also with several processes on PostgreSQL: the pages are this process's Chromium, so the
 * queue for them is this process's; the load balancer spreads a burst over the processes, each of which serves the
 * waiting businesses in turn. A cross-process cap (a database counter) would leave pages idle while refusing work, and
 * what one business may ask in all is already capped by the limits the processes share (heavy writes and PDF
 * downloads, auth/rate-limit.ts).
 */
export class FairQueue<T> {
  private readonly queues = new Map<string, T[]>();

  get size(): number {
    let n = 0;
    for (const queue of this.queues.values()) n += queue.length;
    return n;
  }

  push(owner: string, item: T): void {
    const queue = this.queues.get(owner);
    if (queue) queue.push(item);
    else this.queues.set(owner, [item]);
  }

  /** The first waiting item of the owner whose turn it is; that owner goes to the back of the rotation. */
  shift(): T | undefined {
    for (const [owner, queue] of this.queues) {
      const item = queue.shift();
      this.queues.delete(owner); // re-inserted below: a Map iterates in insertion order, so it now comes last
      if (queue.length > 0) this.queues.set(owner, queue);
      if (item !== undefined) return item;
    }
    return undefined;
  }
}

/**
 * Server-side PDFs from the same renderer as the screens: one headless Chromium kept warm and reused, a pool of pages
 * (one per core), each printing the document's public page on this very server once its pagination is done. A page
 * loads the app once; each next PDF moves it to the next document inside the app (as a link would: no reload, scripts
 * and fonts already there), under a new `?print=<key>` that the page's ready flag repeats, so the PDF is never taken
 * from the previous document still on screen. Offline: every request to another origin is aborted, so fonts and the
 * logo must be (and are) served locally.
 */
export class PdfRenderer {
  private browser: Promise<Browser> | undefined;
  private idle: Slot[] = [];
  private waiting = new FairQueue<Waiter>();
  private created = 0;
  private printed = 0;
  private current: Browser | undefined;
  private closed = false;

  constructor(
    private readonly chromiumPath: string | undefined,
    private readonly sandbox = !runsAsRoot(),
  ) {}

  get available(): boolean {
    return findChromium(this.chromiumPath) !== undefined;
  }

  private async launch(): Promise<Browser> {
    const executablePath = findChromium(this.chromiumPath);
    if (!executablePath) throw new ChromiumMissingError();
    const { chromium } = await import('playwright-core');
    // The process's own signal handlers stop it (app.ts close()): playwright's would close Chromium under the
    // renders on SIGTERM and exit with code 130 on SIGINT, in the middle of the stop.
    const browser = await chromium.launch({
      executablePath,
      headless: true,
      args: [...chromiumFlags(this.sandbox), '--font-render-hinting=none'],
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    browser.on('disconnected', () => {
      // A crashed browser is relaunched by the next render; pages of the old one are never counted again.
      if (this.current !== browser) return;
      this.browser = undefined;
      this.current = undefined;
      this.idle = [];
      this.created = 0;
    });
    this.current = browser;
    return browser;
  }

  private async acquire(owner: string): Promise<Slot> {
    if (this.closed) throw rendererClosed();
    this.browser ??= this.launch().catch((error) => {
      this.browser = undefined;
      throw error;
    });
    const browser = await this.browser;
    // Closed while Chromium was starting: this render must not queue behind the waiters close() has already failed.
    if (this.closed) throw rendererClosed();
    for (let slot = this.idle.pop(); slot; slot = this.idle.pop()) {
      if (!slot.page.isClosed()) return slot;
      this.created = Math.max(0, this.created - 1);
    }
    if (this.created < POOL_SIZE) {
      this.created += 1;
      try {
        const context = await browser.newContext({ viewport: { width: 794, height: 1123 }, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
        return { page: await context.newPage(), origin: undefined, renders: 0 };
      } catch (error) {
        this.created -= 1;
        throw error;
      }
    }
    return new Promise((resolve, reject) => this.waiting.push(owner, { resolve, reject }));
  }

  /** Hands the page to the next waiting render, or keeps it; a worn or broken one is closed and replaced instead. */
  private release(slot: Slot, broken: boolean) {
    if (broken || slot.renders >= RENDERS_PER_PAGE || slot.page.isClosed()) {
      this.created = Math.max(0, this.created - 1);
      void slot.page
        .context()
        .close()
        .catch(() => {});
      const waiter = this.waiting.shift();
      // A new page for it (its owner already had its turn in the rotation): no need to queue it again.
      if (waiter) void this.acquire(FRESH_PAGE).then(waiter.resolve, waiter.reject);
      return;
    }
    const next = this.waiting.shift();
    if (next) next.resolve(slot);
    else this.idle.push(slot);
  }

  /**
   * Prints `url`, a route of this server's app (whose origin is `origin`), to an A4 PDF once it says it is ready. The
   * page is opened with `?print=<key>`, a key new to this PDF. `owner` (the organisation) takes its turn for a page
   * among the other owners waiting (`FairQueue`).
   */
  async render(url: string, origin: string, owner = ''): Promise<Buffer> {
    const slot = await this.acquire(owner);
    const { page } = slot;
    let broken = false;
    try {
      this.printed += 1;
      const key = String(this.printed);
      const target = new URL(url);
      target.searchParams.set('print', key);
      if (slot.origin === origin) {
        await page.evaluate((href) => history.replaceState(null, '', href), `${target.pathname}${target.search}`);
      } else {
        await page.unrouteAll();
        // Exactly the app's origin, parsed: a prefix test let http://127.0.0.1:30001 through for an app on :3000.
        await page.route('**/*', (route) => (sameOrigin(route.request().url(), origin) ? route.continue() : route.abort()));
        await page.goto(target.href, { waitUntil: 'load', timeout: RENDER_TIMEOUT_MS });
        slot.origin = origin;
      }
      await page.evaluate(whenReady(key, RENDER_TIMEOUT_MS));
      const pdf = await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true });
      slot.renders += 1;
      return pdf;
    } catch (error) {
      // A page that failed may be in any state: replaced rather than reused.
      broken = true;
      if (!this.closed) logger.error('PDF rendering failed', error);
      throw error;
    } finally {
      this.release(slot, broken);
    }
  }

  /** For good (the server is stopping): the renders waiting for a page fail now, those printing when Chromium goes. */
  async close(): Promise<void> {
    this.closed = true;
    for (let waiter = this.waiting.shift(); waiter; waiter = this.waiting.shift()) waiter.reject(rendererClosed());
    const browser = this.browser;
    this.browser = undefined;
    if (browser) await (await browser.catch(() => undefined))?.close().catch(() => {});
  }
}
