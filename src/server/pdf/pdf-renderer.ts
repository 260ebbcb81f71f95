import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { logger } from '../logger';

/** STACK.md trap 5: the flags that work as root on these machines, and no background traffic (tests and benches too). */
export const CHROMIUM_FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const CHROMIUM_ARGS = [...CHROMIUM_FLAGS, '--font-render-hinting=none'];
const POOL_SIZE = 2;
const RENDER_TIMEOUT_MS = 30_000;

export class ChromiumMissingError extends Error {}

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

/**
 * Server-side PDFs from the same renderer as the screens: one headless Chromium kept warm and reused, a small pool
 * of pages, each opening the document's public page on this very server and printing it once its pagination is done.
 * Offline: every request to another origin is aborted, so fonts and the logo must be (and are) served locally.
 */
export class PdfRenderer {
  private browser: Promise<Browser> | undefined;
  private idle: Page[] = [];
  private waiting: { resolve: (page: Page) => void; reject: (error: unknown) => void }[] = [];
  private created = 0;
  private current: Browser | undefined;

  constructor(private readonly chromiumPath: string | undefined) {}

  get available(): boolean {
    return findChromium(this.chromiumPath) !== undefined;
  }

  private async launch(): Promise<Browser> {
    const executablePath = findChromium(this.chromiumPath);
    if (!executablePath) throw new ChromiumMissingError();
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({ executablePath, headless: true, args: CHROMIUM_ARGS });
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

  private async acquire(): Promise<Page> {
    this.browser ??= this.launch().catch((error) => {
      this.browser = undefined;
      throw error;
    });
    const browser = await this.browser;
    const idle = this.idle.pop();
    if (idle && !idle.isClosed()) return idle;
    if (this.created < POOL_SIZE) {
      this.created += 1;
      const context = await browser.newContext({ viewport: { width: 794, height: 1123 }, locale: 'fr-FR', timezoneId: 'Europe/Paris' });
      return context.newPage();
    }
    return new Promise((resolve, reject) => this.waiting.push({ resolve, reject }));
  }

  private release(page: Page) {
    const next = this.waiting.shift();
    if (next) next.resolve(page);
    else this.idle.push(page);
  }

  /** Prints `url` (a page of this server, whose origin is `origin`) to an A4 PDF once it says it is ready. */
  async render(url: string, origin: string): Promise<Buffer> {
    const page = await this.acquire();
    try {
      await page.unrouteAll();
      // Exactly the app's origin, parsed: a prefix test let http://127.0.0.1:30001 through for an app on :3000.
      await page.route('**/*', (route) => (sameOrigin(route.request().url(), origin) ? route.continue() : route.abort()));
      await page.goto(url, { waitUntil: 'load', timeout: RENDER_TIMEOUT_MS });
      await page.waitForSelector('[data-render-ready="true"]', { timeout: RENDER_TIMEOUT_MS });
      await page.evaluate(() => document.fonts.ready.then(() => undefined));
      return await page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true });
    } catch (error) {
      // A page that failed may be in any state: replace it rather than reuse it, and hand a fresh one to a waiter.
      this.created = Math.max(0, this.created - 1);
      await page
        .context()
        .close()
        .catch(() => {});
      const waiter = this.waiting.shift();
      if (waiter) void this.acquire().then(waiter.resolve, waiter.reject);
      logger.error('PDF rendering failed', error);
      throw error;
    } finally {
      if (!page.isClosed()) this.release(page);
    }
  }

  async close(): Promise<void> {
    const browser = this.browser;
    this.browser = undefined;
    if (browser) await (await browser.catch(() => undefined))?.close().catch(() => {});
  }
}
