import http from 'node:http';
import { describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { browserSuite, cspViolations } from '../helpers/browser';
import { defaultDocumentTemplate } from '../../src/shared/schemas/template';
import { issued, line, readyToInvoice } from '../helpers/documents';

const suite = browserSuite();

describe('the Content-Security-Policy in a real browser', () => {
  it('refuses a script injected into the page, and the app works under the policy', async () => {
    const { context, page } = await suite.loggedIn();
    await page.goto('/');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page.addScriptTag({ content: 'window.injected = true;' }).catch(() => undefined);
    expect(await page.evaluate(() => (window as unknown as { injected?: boolean }).injected)).toBeUndefined();
    expect(cspViolations.some((v) => /inline script/i.test(v))).toBe(true);
    cspViolations.length = 0; // the refusal above was the point; any other one still fails the suite
    await context.close();
  });

  it('another site cannot frame the app or its public pages', async () => {
    // A page of another origin (another port) that frames the app's login page.
    const framer = http.createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end(`<iframe id="app" src="${suite.server.url}/auth/login" width="600" height="400"></iframe>`);
    });
    await new Promise<void>((resolve) => framer.listen(0, '127.0.0.1', resolve));
    const address = framer.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    const { context, page } = await suite.loggedIn();
    try {
      await page.goto(`http://127.0.0.1:${port}/`);
      await page.waitForTimeout(500);
      const frame = page.frames().find((f) => f.url().includes('/auth/login'));
      const framedText = frame ? await frame.evaluate(() => document.body?.innerText ?? '').catch(() => '') : '';
      expect(framedText).not.toContain('Connexion');
    } finally {
      await context.close();
      framer.close();
      cspViolations.length = 0; // Chromium reports the refused frame as a violation: expected here
    }
  });

  it('the PDF printer fetches nothing from another origin, even a template logo stored before the check', async () => {
    let fetched = 0;
    const foreign = http.createServer((_req, res) => {
      fetched += 1;
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.end();
    });
    await new Promise<void>((resolve) => foreign.listen(0, '127.0.0.1', resolve));
    const address = foreign.address();
    const port = typeof address === 'object' && address ? address.port : 0;
    try {
      // The review's reproduction: another port on the same host, which `url.startsWith(origin)` let through.
      const template = defaultDocumentTemplate();
      const logo = template.header[0]?.columns[0]?.elements[0];
      if (logo?.type === 'logo') logo.url = `http://127.0.0.1:${port}/logo.png`;
      const sqlite = new Database(suite.server.dbPath);
      const org = (sqlite.prepare('select organization_id from memberships limit 1').get() as { organization_id: number }).organization_id;
      sqlite
        .prepare(
          "insert into settings (organization_id, key, value, updated_at) values (?, 'document', ?, '2026-01-01T00:00:00Z') on conflict do update set value = excluded.value",
        )
        .run(org, JSON.stringify(template));
      sqlite.close();
      const { customerId } = await readyToInvoice(suite.session);
      const doc = await issued(suite.session, { type: 'invoice', customer_id: customerId, items: [line('Audit', 1, 100)] });
      const pdf = await fetch(`${suite.server.url}/documents/download/${doc.uuid}`);
      expect(pdf.status).toBe(200);
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
      expect(fetched).toBe(0);
    } finally {
      foreign.close();
    }
  });
});
